import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PostText } from './post-text';

describe('PostText', () => {
  it('renders a <script> in a post as text, not as an element', () => {
    const { container } = render(<PostText content={'<script>window.pwned = true</script><img src=x onerror=alert(1)>'} />);
    expect(container.querySelector('script')).toBeNull();
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByTestId('post-text')).toHaveTextContent('<script>window.pwned = true</script><img src=x onerror=alert(1)>');
    expect((window as unknown as { pwned?: boolean }).pwned).toBeUndefined();
  });

  it('makes http(s) links clickable in a new tab without referrer or endorsement', () => {
    render(<PostText content="Schedule: https://rink.example/s — be there" />);
    const link = screen.getByRole('link', { name: 'https://rink.example/s' });
    expect(link).toHaveAttribute('href', 'https://rink.example/s');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  });

  it('does not link javascript: URLs', () => {
    render(<PostText content="click javascript:alert(document.cookie)" />);
    expect(screen.queryByRole('link')).toBeNull();
    expect(screen.getByTestId('post-text')).toHaveTextContent('click javascript:alert(document.cookie)');
  });
});
