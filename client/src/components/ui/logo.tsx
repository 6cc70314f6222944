/** The Rinkside mark: a puck on a faceoff circle, plus the wordmark. */
export function Logo({ compact = false }: { compact?: boolean }) {
  return (
    <span className="logo">
      <svg className="logo__mark" viewBox="0 0 32 32" width="30" height="30" aria-hidden="true">
        <defs>
          <linearGradient id="rk-ice" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#8fe0ff" />
            <stop offset="1" stopColor="#2a9df4" />
          </linearGradient>
        </defs>
        <circle cx="16" cy="16" r="14" fill="none" stroke="url(#rk-ice)" strokeWidth="2.5" />
        <path d="M16 2v28" stroke="#ff4b5c" strokeWidth="2" opacity=".9" />
        <ellipse cx="16" cy="18.5" rx="7.5" ry="3" fill="#0b1426" />
        <rect x="8.5" y="13" width="15" height="5.5" fill="#0b1426" />
        <ellipse cx="16" cy="13" rx="7.5" ry="3" fill="#eef5ff" />
      </svg>
      {!compact && <span className="logo__word">Rinkside</span>}
    </span>
  );
}
