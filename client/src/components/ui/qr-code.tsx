// A QR code as an SVG drawn by React: `qrcode` makes the symbol (its
// modules), we draw one path of squares. No canvas and no innerHTML, so it
// renders the same in tests, scales crisply on a rink's big screen, and
// prints. Dark on white with the standard 4-module quiet zone, which phone
// cameras need to find the code on a dark page.

import { useMemo } from 'react';
import { create } from 'qrcode';

/** The quiet zone around the symbol, in modules (ISO/IEC 18004 asks for 4). */
const QUIET_ZONE = 4;

/** The path of every dark module, one unit square each. */
export function qrPath(text: string): { size: number; d: string } {
  const { modules } = create(text, { errorCorrectionLevel: 'M' });
  const parts: string[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; col++) {
      if (modules.get(row, col)) parts.push(`M${col + QUIET_ZONE} ${row + QUIET_ZONE}h1v1h-1z`);
    }
  }
  return { size: modules.size + 2 * QUIET_ZONE, d: parts.join('') };
}

export function QrCode({ text, size = 200, label, 'data-testid': testId }: { text: string; size?: number; label: string; 'data-testid'?: string }) {
  const { size: n, d } = useMemo(() => qrPath(text), [text]);
  return (
    <svg className="qr-code" width={size} height={size} viewBox={`0 0 ${n} ${n}`} role="img" aria-label={label} shapeRendering="crispEdges" data-testid={testId} data-text={text}>
      <rect width={n} height={n} fill="#fff" />
      <path d={d} fill="#000" />
    </svg>
  );
}
