import type { HTMLAttributes, ReactNode } from 'react';

export interface CardProps extends HTMLAttributes<HTMLElement> {
  as?: 'section' | 'div' | 'article';
  padded?: boolean;
}

export function Card({ as: Tag = 'section', padded = true, className, ...rest }: CardProps) {
  return <Tag className={['card', padded ? 'card--padded' : '', className ?? ''].filter(Boolean).join(' ')} {...rest} />;
}

export function CardHeader({ title, action, subtitle }: { title: ReactNode; subtitle?: ReactNode; action?: ReactNode }) {
  return (
    <header className="card__header">
      <div>
        <h2 className="card__title">{title}</h2>
        {subtitle && <p className="card__subtitle">{subtitle}</p>}
      </div>
      {action && <div className="card__action">{action}</div>}
    </header>
  );
}
