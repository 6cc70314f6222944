// The console's full-screen picker: jersey numbers big enough to hit with a
// thumb on a bench, one tap per pick (see model/picker.ts for the steps).
//
// A tap counts only if it started on the sheet after the sheet (or its
// current step) appeared: a double tap on GOAL must not credit whoever's
// jersey opened under the finger, nor a double tap on a scorer pick the
// first assist (docs/walkthrough.md). Keyboard activation has no pointer
// and always counts.

import { useEffect, useLayoutEffect, useRef, type MouseEvent } from 'react';
import type { GameDocument, GamePlayer } from '../../../lib/api-types';
import { playerTag } from '../../../lib/games';
import { Button } from '../../../components/ui/button';
import { XIcon } from '../../../components/ui/icons';
import { MAX_ASSISTS, type PickerEvent, type PickerState } from '../model/picker';
import { PenaltyKindStep } from './penalty-kind-step';

function JerseyTile({
  player,
  onPick,
  badge,
  selected,
}: {
  player: GamePlayer;
  onPick: () => void;
  badge?: string;
  selected?: boolean;
}) {
  return (
    <button
      type="button"
      className={`jersey-tile${selected ? ' jersey-tile--on' : ''}`}
      onClick={onPick}
      aria-pressed={selected === undefined ? undefined : selected}
      aria-label={playerTag(player)}
      data-testid={`pick-${player.userId}`}
    >
      <span className="jersey-tile__num">{player.jerseyNumber ?? '–'}</span>
      <span className="jersey-tile__name">{player.displayName}</span>
      {badge && <span className="jersey-tile__badge">{badge}</span>}
    </button>
  );
}

export function PickerSheet({ game, state, dispatch }: { game: GameDocument; state: Exclude<PickerState, { step: 'closed' }>; dispatch: (e: PickerEvent) => void }) {
  const team = state.side === 'home' ? game.home : game.away;
  const dressed = team.players.filter((p) => p.dressed);
  const titleRef = useRef<HTMLHeadingElement>(null);
  // Armed by a pointer going down on the sheet since this step appeared.
  const armed = useRef(false);
  const stepKey = `${state.step}:${state.step === 'assists' ? state.assistIds.length : ''}`;
  useLayoutEffect(() => {
    armed.current = false;
  }, [stepKey]);
  const onPointerDownCapture = () => {
    armed.current = true;
  };
  const onClickCapture = (e: MouseEvent) => {
    // `detail` is 0 for a click made with the keyboard.
    if (e.detail !== 0 && !armed.current) {
      e.preventDefault();
      e.stopPropagation();
    }
  };

  useEffect(() => {
    titleRef.current?.focus();
  }, [state.step]);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') dispatch({ type: 'cancel' });
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch]);

  const scorer = state.step === 'assists' ? dressed.find((p) => p.userId === state.scorerId) : undefined;
  const penalised = state.step === 'penalty-kind' ? dressed.find((p) => p.userId === state.playerId) : undefined;
  const isGoal = state.step === 'scorer' || state.step === 'assists';

  let prompt: string;
  switch (state.step) {
    case 'scorer':
      prompt = 'Who scored?';
      break;
    case 'assists':
      prompt = state.assistIds.length === 0 ? `Assists? Tap up to ${MAX_ASSISTS}` : 'Second assist?';
      break;
    case 'penalty-player':
      prompt = 'Who took the penalty?';
      break;
    case 'penalty-kind':
      prompt = 'What was called?';
      break;
  }

  return (
    <div
      className={`sheet sheet--${state.side}`}
      role="dialog"
      aria-modal="true"
      aria-labelledby="sheet-title"
      data-testid="picker-sheet"
      data-step={state.step}
      onPointerDownCapture={onPointerDownCapture}
      onClickCapture={onClickCapture}
    >
      <header className="sheet__head">
        <div className="sheet__heading">
          <p className="sheet__eyebrow">
            {isGoal ? 'Goal' : 'Penalty'} · {team.name}
            {scorer && ` · ${playerTag(scorer)}`}
            {penalised && ` · ${playerTag(penalised)}`}
          </p>
          <h2 id="sheet-title" className="sheet__title" tabIndex={-1} ref={titleRef}>
            {prompt}
          </h2>
        </div>
        <button type="button" className="sheet__close" onClick={() => dispatch({ type: 'cancel' })} aria-label="Cancel" data-testid="picker-cancel">
          <XIcon size={24} />
        </button>
      </header>

      <div className="sheet__body">
        {state.step === 'penalty-kind' ? (
          <PenaltyKindStep clockMs={state.clockMs} periodMs={game.clock?.phase === 'PLAY' ? game.clock.periodMs : null} dispatch={dispatch} />
        ) : (
          <>
            {dressed.length === 0 && (
              <p className="sheet__note">
                Nobody from {team.name} is dressed for this game. Set the lineup below the buttons{isGoal ? ', or record the goal without a scorer' : ''}.
              </p>
            )}
            <div className="jersey-grid">
              {dressed
                .filter((p) => state.step !== 'assists' || p.userId !== state.scorerId)
                .map((p) => {
                  if (state.step === 'assists') {
                    const i = state.assistIds.indexOf(p.userId);
                    return <JerseyTile key={p.userId} player={p} selected={i >= 0} badge={i >= 0 ? `A${i + 1}` : undefined} onPick={() => dispatch({ type: 'player', userId: p.userId })} />;
                  }
                  return <JerseyTile key={p.userId} player={p} onPick={() => dispatch({ type: 'player', userId: p.userId })} />;
                })}
            </div>
          </>
        )}
      </div>

      <footer className="sheet__foot">
        {state.step === 'scorer' && (
          <Button variant="secondary" size="lg" block onClick={() => dispatch({ type: 'no-scorer' })} data-testid="no-scorer">
            Scorer not known
          </Button>
        )}
        {state.step === 'assists' && (
          <>
            <Button variant="secondary" size="lg" onClick={() => dispatch({ type: 'back' })} data-testid="picker-back">
              Back
            </Button>
            {state.assistIds.length === 0 ? (
              <Button size="lg" block onClick={() => dispatch({ type: 'unassisted' })} data-testid="unassisted">
                Unassisted · send goal
              </Button>
            ) : (
              <Button size="lg" block onClick={() => dispatch({ type: 'send' })} data-testid="send-goal">
                Send goal · 1 assist
              </Button>
            )}
          </>
        )}
        {(state.step === 'penalty-player' || state.step === 'penalty-kind') && (
          <Button variant="secondary" size="lg" block onClick={() => dispatch({ type: state.step === 'penalty-kind' ? 'back' : 'cancel' })} data-testid="picker-back">
            {state.step === 'penalty-kind' ? 'Back' : 'Cancel'}
          </Button>
        )}
      </footer>
    </div>
  );
}
