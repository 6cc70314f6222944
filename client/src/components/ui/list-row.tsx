import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** One row of a people/facility/team list: the whole row links, the action does not. */
export function ListRow({
  to,
  media,
  title,
  subtitle,
  meta,
  action,
  testId,
}: {
  to: string;
  media: ReactNode;
  title: ReactNode;
  subtitle?: ReactNode;
  meta?: ReactNode;
  action?: ReactNode;
  testId?: string;
}) {
  return (
    <li className="list-row" data-testid={testId}>
      <Link to={to} className="list-row__link">
        <span className="list-row__media">{media}</span>
        <span className="list-row__text">
          <span className="list-row__title">{title}</span>
          {subtitle && <span className="list-row__subtitle">{subtitle}</span>}
          {meta && <span className="list-row__meta">{meta}</span>}
        </span>
      </Link>
      {action && <div className="list-row__action">{action}</div>}
    </li>
  );
}

export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <ul className="list" aria-hidden="true">
      {Array.from({ length: rows }, (_, i) => (
        <li key={i} className="list-row list-row--skeleton">
          <span className="skeleton skeleton--circle" />
          <span className="list-row__text">
            <span className="skeleton skeleton--line" style={{ width: `${50 + ((i * 17) % 35)}%` }} />
            <span className="skeleton skeleton--line skeleton--short" />
          </span>
        </li>
      ))}
    </ul>
  );
}
