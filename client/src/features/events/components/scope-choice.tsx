// "This event only" or "This and all following": asked before an edit of an
// event in a weekly series is saved (docs/series.md). Shown in place, not as
// a modal. "This event only" is the default: the primary button, in the
// primary place, and it takes the focus (Enter picks it); changing every
// later week is the deliberate, secondary choice. Escape goes back to editing.

import { useEffect, useId, useRef } from 'react';
import { Button } from '../../../components/ui/button';
import type { SeriesScope } from '../api/events';

export function ScopeChoice({
  onChoose,
  onDismiss,
  pending = null,
  className = '',
}: {
  onChoose: (scope: SeriesScope) => void;
  onDismiss: () => void;
  /** The choice being saved, for its spinner. */
  pending?: SeriesScope | null;
  className?: string;
}) {
  const id = useId();
  const first = useRef<HTMLButtonElement>(null);
  useEffect(() => first.current?.focus(), []);
  return (
    <div
      className={`scope-choice ${className}`}
      role="alertdialog"
      aria-labelledby={`${id}-q`}
      aria-describedby={`${id}-d`}
      data-testid="scope-choice"
      onKeyDown={(e) => {
        if (e.key === 'Escape') {
          e.stopPropagation();
          onDismiss();
        }
      }}
    >
      <p className="scope-choice__text">
        <strong id={`${id}-q`}>Save for which weeks?</strong>{' '}
        <span id={`${id}-d`} className="muted">This event repeats weekly. Earlier and cancelled weeks never change.</span>
      </p>
      <div className="scope-choice__buttons">
        <Button type="button" size="sm" variant="ghost" onClick={onDismiss} disabled={pending !== null} data-testid="scope-back">
          Back
        </Button>
        <Button type="button" size="sm" variant="secondary" loading={pending === 'following'} disabled={pending === 'this'} onClick={() => onChoose('following')} data-testid="scope-following">
          This and all following
        </Button>
        <Button ref={first} type="button" size="sm" loading={pending === 'this'} disabled={pending === 'following'} onClick={() => onChoose('this')} data-testid="scope-this">
          This event only
        </Button>
      </div>
    </div>
  );
}
