import type { ReactNode } from 'react';

export function Chip({ children, tone = 'default' }: { children: ReactNode; tone?: 'default' | 'accent' | 'gold' }) {
  return <span className={`chip chip--${tone}`}>{children}</span>;
}
