import { useState } from 'react';

// Stable colour per person so the same initials always look the same.
const HUES = [204, 188, 222, 262, 160, 12, 340, 40];

function hueFor(seed: string): number {
  let h = 0;
  for (let i = 0; i < seed.length; i++) h = (h * 31 + seed.charCodeAt(i)) >>> 0;
  return HUES[h % HUES.length] ?? 204;
}

export function initialsOf(name: string): string {
  const parts = name.replace(/^@/, '').split(/[\s._-]+/).filter(Boolean);
  const first = parts[0]?.[0] ?? '?';
  const second = parts.length > 1 ? (parts[parts.length - 1]?.[0] ?? '') : '';
  return (first + second).toUpperCase();
}

export interface AvatarProps {
  name: string;
  src?: string | null;
  size?: 'xs' | 'sm' | 'md' | 'lg' | 'xl';
  square?: boolean;
}

export function Avatar({ name, src, size = 'md', square = false }: AvatarProps) {
  const [broken, setBroken] = useState(false);
  const cls = `avatar avatar--${size}${square ? ' avatar--square' : ''}`;
  if (src && !broken) {
    return <img className={cls} src={src} alt="" onError={() => setBroken(true)} />;
  }
  const hue = hueFor(name);
  return (
    <span
      className={cls}
      aria-hidden="true"
      style={{ background: `linear-gradient(135deg, hsl(${hue} 70% 42%), hsl(${(hue + 30) % 360} 75% 30%))` }}
    >
      {initialsOf(name)}
    </span>
  );
}
