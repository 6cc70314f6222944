// The console's game clock: the time as big as the phone allows, and one
// large START / STOP button under the thumb. Stopping sends the server our
// estimate of the instant of the tap (`at`), so the stop lands where the
// thumb was, not where the frame arrived. Under it, the two things done
// with the clock between plays: correct it (CLOCK_SET) and, once a period
// has ended, start the intermission countdown.
//
// Nothing moves before the server answers: the face shows the clock the
// game state holds, which the reply (or the topic) brings.

import { useState, type FormEvent } from 'react';
import type { Game } from '../../../lib/api-types';
import { formatClock, formatMinutes, hasClock, parseClock } from '../../../lib/game-clock';
import { periodLong, periodShort } from '../../../lib/games';
import { serverNow } from '../../../lib/time-sync';
import { useGameClock } from '../../../lib/use-game-clock';
import { Button } from '../../../components/ui/button';
import type { GameActionBody } from '../model/commands';
import { periodEnded } from '../model/period';

/** Intermission lengths offered with one tap, in minutes. */
export const INTERMISSION_CHOICES = [2, 5, 10, 15] as const;

export function ClockControl({ game, send, disabled }: { game: Game; send: (action: GameActionBody) => void; disabled: boolean }) {
  const clock = game.clock;
  const live = useGameClock(clock);
  const [editing, setEditing] = useState(false);
  if (!hasClock(clock, game.period) || !live) return null;

  const intermission = clock.phase === 'INTERMISSION';
  const timeUp = !intermission && live.leftMs === 0;
  const ended = periodEnded(game);
  const canStart = game.status === 'LIVE' && !live.running && (intermission || (!ended && live.leftMs > 0));
  const running = live.running;
  const next = periodShort(game.period);
  const runningTime = game.settings?.clockMode === 'RUNNING';

  let label: string;
  let hint: string;
  if (running && intermission) {
    label = `Start ${next}`;
    hint = 'Ends the intermission, runs the clock';
  } else if (running) {
    label = 'Stop';
    hint = runningTime ? 'Running time: stop only for an injury' : 'Whistle';
  } else if (ended) {
    label = 'Period over';
    hint = 'Start the intermission below';
  } else if (timeUp) {
    label = 'Time up';
    hint = 'End the period, or set the clock';
  } else {
    label = 'Start';
    hint = 'Puck drop';
  }
  const tap = () => {
    if (running && !intermission) send({ type: 'CLOCK_STOP', at: Math.round(serverNow()) });
    else send({ type: 'CLOCK_START' });
  };

  return (
    <section className={`sk-clock${running ? ' sk-clock--running' : ''}${intermission ? ' sk-clock--break' : ''}${timeUp ? ' sk-clock--up' : ''}`} aria-label="Game clock">
      <div className="sk-clock__face">
        <span className="sk-clock__period">{intermission ? `Intermission · ${next} next` : periodLong(game.period)}</span>
        <span className="sk-clock__time" data-testid="console-clock" data-remaining-ms={Math.round(live.leftMs)} data-running={running} aria-live="off">
          {formatClock(live.leftMs)}
        </span>
        {runningTime && !intermission && <span className="sk-clock__mode">Running time</span>}
      </div>
      <button
        type="button"
        className={`sk-btn sk-btn--clock${running && !intermission ? ' sk-btn--clock-stop' : ''}`}
        disabled={disabled || !(running || canStart)}
        onClick={tap}
        data-testid="clock-toggle"
        data-action={running && !intermission ? 'stop' : 'start'}
      >
        {label}
        <small>{hint}</small>
      </button>
      <div className="sk-clock__tools">
        {editing ? (
          <ClockSetForm
            leftMs={live.leftMs}
            periodMs={clock.periodMs}
            onCancel={() => setEditing(false)}
            onSet={(remainingMs) => {
              setEditing(false);
              send({ type: 'CLOCK_SET', remainingMs });
            }}
          />
        ) : (
          <Button variant="ghost" size="sm" disabled={disabled || game.status !== 'LIVE'} onClick={() => setEditing(true)} data-testid="clock-set-open">
            Set clock
          </Button>
        )}
      </div>
      {ended && !intermission && !running && game.status === 'LIVE' && (
        <div className="sk-break" role="group" aria-label="Intermission">
          <span className="sk-break__label">Intermission</span>
          {INTERMISSION_CHOICES.map((m) => (
            <button key={m} type="button" className="sk-break__chip" disabled={disabled} onClick={() => send({ type: 'INTERMISSION', minutes: m })} data-testid={`intermission-${m}`}>
              {m} min
            </button>
          ))}
        </div>
      )}
    </section>
  );
}

function ClockSetForm({ leftMs, periodMs, onSet, onCancel }: { leftMs: number; periodMs: number; onSet: (ms: number) => void; onCancel: () => void }) {
  // Seeded once with the clock as it read when the form opened (it may still run).
  const [text, setText] = useState(() => formatMinutes(leftMs));
  const [error, setError] = useState<string | null>(null);
  const nudge = (by: number) => {
    const ms = parseClock(text);
    if (ms === null) return;
    setText(formatMinutes(Math.min(periodMs, Math.max(0, ms + by))));
    setError(null);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const ms = parseClock(text);
    if (ms === null) return setError('Type the time as it should read, like 12:34.');
    if (ms > periodMs) return setError(`The period is ${formatMinutes(periodMs)} long.`);
    onSet(ms);
  };
  return (
    <form className="sk-clockset" onSubmit={submit} data-testid="clock-set-form">
      <button type="button" className="sk-clockset__nudge" onClick={() => nudge(-1000)} aria-label="One second less">
        −1s
      </button>
      <input
        className="sk-clockset__input"
        value={text}
        inputMode="decimal"
        autoComplete="off"
        aria-label="Time left in the period"
        aria-invalid={error ? true : undefined}
        onChange={(e) => {
          setText(e.target.value);
          setError(null);
        }}
        data-testid="clock-set-input"
      />
      <button type="button" className="sk-clockset__nudge" onClick={() => nudge(1000)} aria-label="One second more">
        +1s
      </button>
      <Button type="submit" size="sm" data-testid="clock-set-save">
        Set
      </Button>
      <Button variant="ghost" size="sm" onClick={onCancel}>
        Cancel
      </Button>
      {error && (
        <p className="sk-clockset__error" role="alert">
          {error}
        </p>
      )}
    </form>
  );
}
