// The penalty picker's last step: what was called — one tap sends it — and
// when, prefilled with the game clock as it read when PENALTY was tapped
// and editable (the score keeper often writes it up a stoppage later).

import { useId, useState } from 'react';
import type { PenaltyKind } from '../../../lib/api-types';
import { formatMinutes, parseClock } from '../../../lib/game-clock';
import { PENALTY_LABELS } from '../../../lib/games';
import { PENALTY_CHOICES, type PickerEvent } from '../model/picker';

export function PenaltyKindStep({ clockMs, periodMs, dispatch }: { clockMs: number | null; periodMs: number | null; dispatch: (e: PickerEvent) => void }) {
  const prefill = clockMs === null ? '' : formatMinutes(clockMs);
  const [text, setText] = useState(prefill);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  const pick = (penalty: PenaltyKind) => {
    if (clockMs === null) {
      dispatch({ type: 'penalty-kind', penalty, clockMs: null });
      return;
    }
    // Untouched, the time goes as the clock held it, to the millisecond
    // (a whole second later could put it before a shot just recorded).
    if (text === prefill) {
      dispatch({ type: 'penalty-kind', penalty, clockMs });
      return;
    }
    const ms = parseClock(text);
    if (ms === null) {
      setError('Type the time as it read, like 12:34.');
      return;
    }
    if (periodMs !== null && ms > periodMs) {
      setError(`The period is only ${formatMinutes(periodMs)} long.`);
      return;
    }
    dispatch({ type: 'penalty-kind', penalty, clockMs: ms });
  };

  return (
    <div className="pen-step">
      {clockMs !== null && (
        <div className="pen-step__time">
          <label htmlFor={id} className="pen-step__label">
            Time on the clock
          </label>
          <input
            id={id}
            className="pen-step__input"
            inputMode="decimal"
            autoComplete="off"
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            data-testid="penalty-clock"
          />
          {error && (
            <p id={`${id}-error`} className="pen-step__error" role="alert">
              {error}
            </p>
          )}
        </div>
      )}
      <div className="minutes-grid minutes-grid--kinds">
        {PENALTY_CHOICES.map((c) => (
          <button key={c.penalty} type="button" className={`minutes-tile minutes-tile--${c.penalty.toLowerCase().replace('_', '-')}`} onClick={() => pick(c.penalty)} data-testid={`penalty-${c.penalty}`}>
            <span className="minutes-tile__num">{c.minutes}</span>
            <span className="minutes-tile__label">{PENALTY_LABELS[c.penalty]}</span>
          </button>
        ))}
      </div>
      <p className="sheet__note">Misconducts sit the player without putting the team short. Two penalties at once per side; a third waits its turn.</p>
    </div>
  );
}
