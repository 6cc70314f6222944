// Layout and small badges shared by the facility, team, season and roster
// pages: a main column with a side column (stacked on phones), the "Active"
// chip, an icon tile for list rows and the viewer's role tag.

import type { ReactNode } from 'react';
import './org-layout.css';

export function OrgLayout({ main, side, testId }: { main: ReactNode; side: ReactNode; testId?: string }) {
  return (
    <div className="org-layout" data-testid={testId}>
      <div className="org-layout__main">{main}</div>
      <div className="org-layout__side">{side}</div>
    </div>
  );
}

export function ActiveChip({ children = 'Active' }: { children?: ReactNode }) {
  return <span className="org-active-chip">{children}</span>;
}

/** A square icon in place of an avatar; `live` lights it up. */
export function IconTile({ icon, live = false }: { icon: ReactNode; live?: boolean }) {
  return (
    <span className={`org-tile${live ? ' org-tile--live' : ''}`} aria-hidden="true">
      {icon}
    </span>
  );
}

/** A list row title with chips after the text, truncating the text only. */
export function RowTitle({ text, chips }: { text: ReactNode; chips?: ReactNode }) {
  return (
    <span className="org-row-title">
      <span className="org-row-title__text">{text}</span>
      {chips}
    </span>
  );
}

/** "You own it" / "You manage it" beside a page's eyebrow. */
export function RoleTag({ children }: { children: ReactNode }) {
  return <span className="org-role-tag">{children}</span>;
}

/** A destructive section at the bottom of an edit page. */
export function DangerZone({ title, subtitle, children, testId }: { title: ReactNode; subtitle: ReactNode; children: ReactNode; testId?: string }) {
  return (
    <section className="card card--padded org-danger" data-testid={testId}>
      <header className="card__header">
        <div>
          <h2 className="card__title">{title}</h2>
          <p className="card__subtitle">{subtitle}</p>
        </div>
      </header>
      <div className="org-danger__body">{children}</div>
    </section>
  );
}
