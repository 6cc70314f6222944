import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QrCode, qrPath } from './qr-code';

describe('QrCode', () => {
  it('draws the symbol with a quiet zone of four modules around it', () => {
    // "hello" at level M fits version 1: 21 modules, 29 with the quiet zone.
    const { size, d } = qrPath('hello');
    expect(size).toBe(29);
    // The top-left finder pattern starts at the quiet zone's edge.
    expect(d.startsWith('M4 4h1v1h-1z')).toBe(true);
    expect(qrPath('hello').d).toBe(d);
    expect(qrPath('hellp').d).not.toBe(d);
  });

  it('renders an SVG image that says what it is', () => {
    render(<QrCode text="https://rinkside.example/events/e-1/check-in?code=ABCD2345" label="QR code to check in" size={120} data-testid="qr" />);
    const svg = screen.getByRole('img', { name: 'QR code to check in' });
    expect(svg).toHaveAttribute('width', '120');
    expect(svg.getAttribute('viewBox')).toMatch(/^0 0 \d+ \d+$/);
  });
});
