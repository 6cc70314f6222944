// "Teams": two fair sides, Dark and Light (docs/sides-and-bill.md › Fair
// sides). The organiser makes them in one tap, re-rolls or re-balances, and
// swaps two players with two taps (a player, then one on the other side); a
// newcomer is put on a side the same way. Everyone else reads the columns,
// and a player on a side gets a banner in their jersey's colour. The totals
// under each column keep the balance in view: goalies, D, F and level.

import { useState } from 'react';
import { refusalText } from '../../../lib/use-form-errors';
import type { Side, SidePlayer, SidesDoc, SideTotals } from '../../../lib/api-types';
import { plural } from '../../../lib/format';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { useSides, useSidesAction, useSwapSides } from '../api/sides';
import { findPlayer, levelName, otherSide, ROLE_LABELS, ROLE_SHORT, SIDE_NAMES, sideOf, sidesMade, tapOutcome } from '../model/sides';
import '../sides-and-bill.css';

/** A jersey, filled in the side's colour. */
export function JerseyIcon({ side, size = 28 }: { side: Side; size?: number }) {
  return (
    <svg className={`jersey jersey--${side.toLowerCase()}`} width={size} height={size} viewBox="0 0 32 32" aria-hidden="true">
      <path d="M11 4h10l1.2 2.2a2 2 0 0 0 1.5 1L29 8.5l1 7-5 .8V28H7V16.3l-5-.8 1-7 5.3-1.3a2 2 0 0 0 1.5-1z" />
      <path className="jersey__stripe" d="M7 20h18v2.6H7z" />
    </svg>
  );
}

/** "You're on Dark": the banner a player on a side sees first. */
function MySideBanner({ side, doc }: { side: Side; doc: SidesDoc }) {
  const mates = (side === 'DARK' ? doc.dark : doc.light).filter((p) => p.present).length - 1;
  return (
    <div className={`my-side my-side--${side.toLowerCase()}`} data-testid="my-side" role="status">
      <JerseyIcon side={side} size={40} />
      <div className="my-side__text">
        <strong className="my-side__title">You're on {SIDE_NAMES[side]}</strong>
        <span className="my-side__sub">
          {side === 'DARK' ? 'Bring your dark jersey.' : 'Bring your white jersey.'}
          {mates > 0 && ` ${mates} ${plural(mates, 'teammate')} with you.`}
        </span>
      </div>
    </div>
  );
}

function LevelChip({ level }: { level: number | null }) {
  const name = levelName(level);
  return (
    <span className={`level-chip${level === null ? ' level-chip--unknown' : ''}`} title={name ? `Level ${level}: ${name}` : 'Level unknown: counted as the middle of the group'}>
      <span aria-hidden="true">{level ?? '–'}</span>
      <span className="sr-only">{name ? `level ${level}, ${name}` : 'level unknown'}</span>
    </span>
  );
}

function RoleBadge({ player }: { player: SidePlayer }) {
  return (
    <span className={`role-badge role-badge--${player.role.toLowerCase()}`} title={ROLE_LABELS[player.role]}>
      <span aria-hidden="true">{ROLE_SHORT[player.role]}</span>
      <span className="sr-only">{ROLE_LABELS[player.role]}</span>
    </span>
  );
}

interface Picking {
  selected: string | null;
  busy: boolean;
  onTap: (userId: string) => void;
}

function PlayerRow({ player, side, myId, picking }: { player: SidePlayer; side: Side | null; myId: string; picking: Picking | null }) {
  const isMe = player.userId === myId;
  const hole = !player.present;
  const selected = picking?.selected === player.userId;
  const body = (
    <>
      <RoleBadge player={player} />
      <span className="side-player__name">
        <span className="side-player__label">
          {player.displayName}
          {isMe && <span className="you-badge">You</span>}
        </span>
        {hole && <span className="side-player__dropped">dropped</span>}
      </span>
      {!hole && <LevelChip level={player.level} />}
    </>
  );
  const cls = ['side-player', hole && 'side-player--hole', isMe && 'side-player--me', selected && 'side-player--selected'].filter(Boolean).join(' ');
  // A hole is not anyone to swap: re-balancing fills it.
  if (!picking || hole) {
    return (
      <li className={cls} data-testid={`side-player-${player.userId}`} data-present={player.present}>
        {hole && <span className="sr-only">Dropped out: </span>}
        {body}
      </li>
    );
  }
  const where = side ? SIDE_NAMES[side] : 'not on a side';
  const action = selected ? 'selected; tap again to let go' : picking.selected ? (side ? 'tap to swap' : 'tap to pick instead') : 'tap to pick for a swap';
  return (
    <li className="side-player__item">
      <button
        type="button"
        className={`${cls} side-player--button`}
        aria-pressed={selected}
        aria-label={`${player.displayName}, ${ROLE_LABELS[player.role]}, ${player.level === null ? 'level unknown' : `level ${player.level}`}, ${where}: ${action}`}
        disabled={picking.busy}
        onClick={() => picking.onTap(player.userId)}
        data-testid={`side-player-${player.userId}`}
        data-present={player.present}
      >
        {body}
      </button>
    </li>
  );
}

function Totals({ totals, side }: { totals: SideTotals; side: Side }) {
  return (
    <p className="side-col__totals" data-testid={`sides-totals-${side}`}>
      <span title="Goalies">{totals.goalies} G</span>
      <span title="Defence">{totals.defence} D</span>
      <span title="Forwards">{totals.forwards} F</span>
      <span className="side-col__level" title="Sum of the players' levels">
        Level {totals.levelSum}
      </span>
    </p>
  );
}

function SideColumn({
  side,
  doc,
  myId,
  picking,
  placing,
  onPlace,
}: {
  side: Side;
  doc: SidesDoc;
  myId: string;
  picking: Picking | null;
  /** A newcomer is selected: the header puts them on this side. */
  placing: SidePlayer | null;
  onPlace: (side: Side) => void;
}) {
  const players = side === 'DARK' ? doc.dark : doc.light;
  const present = players.filter((p) => p.present).length;
  const head = (
    <>
      <JerseyIcon side={side} size={22} />
      <span className="side-col__name">{SIDE_NAMES[side]}</span>
      <span className="side-col__count">{present}</span>
    </>
  );
  return (
    <section className={`side-col side-col--${side.toLowerCase()}`} data-testid={`side-${side}`} aria-label={`${SIDE_NAMES[side]} side`}>
      {placing ? (
        <button type="button" className="side-col__head side-col__head--target" onClick={() => onPlace(side)} disabled={picking?.busy} aria-label={`Put ${placing.displayName} on ${SIDE_NAMES[side]}`} data-testid={`side-head-${side}`}>
          {head}
          <span className="side-col__put">Put here</span>
        </button>
      ) : (
        <h3 className="side-col__head" data-testid={`side-head-${side}`}>
          {head}
        </h3>
      )}
      <ul className="side-col__list">
        {players.map((p) => (
          <PlayerRow key={p.userId} player={p} side={side} myId={myId} picking={picking} />
        ))}
      </ul>
      <Totals totals={side === 'DARK' ? doc.totals.dark : doc.totals.light} side={side} />
    </section>
  );
}

/** What the organiser has picked, and what the next tap will do. */
function PickHint({ doc, selected, busy, onMove, onClear }: { doc: SidesDoc; selected: string; busy: boolean; onMove: () => void; onClear: () => void }) {
  const player = findPlayer(doc, selected);
  if (!player) return null;
  const side = sideOf(doc, selected);
  const text = side
    ? `Tap a player on ${SIDE_NAMES[otherSide(side)]} to swap with ${player.displayName}.`
    : `Tap Dark or Light to put ${player.displayName} there.`;
  return (
    <div className="pick-hint" role="status" data-testid="pick-hint">
      <span className="pick-hint__text">{text}</span>
      <span className="pick-hint__actions">
        <Button size="sm" variant="secondary" loading={busy} onClick={onMove} data-testid="put-on-side">
          {side ? `Move to ${SIDE_NAMES[otherSide(side)]}` : 'Put on a side'}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClear} disabled={busy} data-testid="pick-cancel">
          Cancel
        </Button>
      </span>
    </div>
  );
}

export function SidesCard({ eventId, isOrganiser, myId, mySide }: { eventId: string; isOrganiser: boolean; myId: string; mySide: Side | null }) {
  const query = useSides(eventId);
  const act = useSidesAction(eventId);
  const swap = useSwapSides(eventId);
  const [selected, setSelected] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const doc = query.data;

  // Nothing to show: no split this event keeps, or one I may not read.
  if (query.isError && !doc) return null;
  if (!doc) {
    return isOrganiser ? (
      <Card className="event-block event-block--sides" data-testid="sides">
        <div className="center-pad">
          <Spinner label="Loading teams" />
        </div>
      </Card>
    ) : null;
  }
  const made = sidesMade(doc);
  if (!made && !isOrganiser) return null;

  const busy = act.isPending || swap.isPending;
  // "The two players are on the same side" reads better than "User ids: the two…".
  const fail = (err: unknown) => setError(refusalText(err));
  const run = (action: 'MAKE' | 'REROLL' | 'REBALANCE') => {
    setError(null);
    setSelected(null);
    act.mutate(action, { onError: fail });
  };
  const doSwap = (userIds: [string] | [string, string], side?: Side) => {
    setError(null);
    swap.mutate(
      { userIds, side },
      {
        onSuccess: () => setSelected(null),
        onError: fail,
      },
    );
  };
  const onTap = (userId: string) => {
    const out = tapOutcome(doc, selected, userId);
    setError(null);
    if (out.kind === 'deselect') setSelected(null);
    else if (out.kind === 'select') setSelected(out.userId);
    else doSwap(out.userIds);
  };
  // A newcomer goes where the organiser points.
  const place = (side: Side) => {
    if (selected) doSwap([selected], side);
  };

  const selectedPlayer = selected ? findPlayer(doc, selected) : null;
  const placing = selectedPlayer && selected && sideOf(doc, selected) === null ? selectedPlayer : null;
  const picking: Picking | null = isOrganiser ? { selected, busy, onTap } : null;
  const holes = [...doc.dark, ...doc.light].filter((p) => !p.present).length;
  const newcomers = doc.unassigned.length;
  const inCount = doc.dark.filter((p) => p.present).length + doc.light.filter((p) => p.present).length + newcomers;
  // The columns' own word first, so the banner never disagrees with the list under it.
  const shownSide = sideOf(doc, myId) ?? mySide;
  const mySidePresent = shownSide !== null && (shownSide === 'DARK' ? doc.dark : doc.light).some((p) => p.userId === myId && p.present);

  const subtitle = !made
    ? `${inCount} ${plural(inCount, 'player')} in. One tap splits them into two fair sides: a goalie each, D and F even, levels balanced.`
    : isOrganiser
      ? 'Tap a player, then one on the other side, to swap them.'
      : 'Set by the organiser. Balanced on goalies, positions and level.';

  return (
    <Card padded={false} className="event-block event-block--sides sides-card" data-testid="sides">
      <div className="card__pad card__pad--header">
        <CardHeader
          title="Teams"
          subtitle={subtitle}
          action={
            isOrganiser && made ? (
              <div className="sides-card__tools">
                <Button size="sm" variant={holes + newcomers > 0 ? 'primary' : 'secondary'} loading={act.isPending && act.variables === 'REBALANCE'} disabled={busy} onClick={() => run('REBALANCE')} data-testid="rebalance-sides">
                  Re-balance
                </Button>
                <Button size="sm" variant="ghost" loading={act.isPending && act.variables === 'REROLL'} disabled={busy} onClick={() => run('REROLL')} data-testid="reroll-sides">
                  Re-roll
                </Button>
              </div>
            ) : undefined
          }
        />
      </div>
      {mySidePresent && shownSide && (
        <div className="card__pad sides-card__banner">
          <MySideBanner side={shownSide} doc={doc} />
        </div>
      )}
      {error && (
        <div className="card__pad sides-card__error" data-testid="sides-error">
          <Alert>{error}</Alert>
        </div>
      )}
      {!made ? (
        <div className="card__pad sides-card__make">
          <Button size="lg" loading={act.isPending} onClick={() => run('MAKE')} data-testid="make-sides" icon={<JerseyIcon side="DARK" size={20} />}>
            Make teams
          </Button>
          <p className="field__hint">Players get told their side. You can swap anyone afterwards.</p>
        </div>
      ) : (
        <>
          {isOrganiser && selected && (
            <div className="card__pad sides-card__hint">
              <PickHint
                doc={doc}
                selected={selected}
                busy={swap.isPending}
                onMove={() => doSwap([selected])}
                onClear={() => setSelected(null)}
              />
            </div>
          )}
          <div className="sides">
            <SideColumn side="DARK" doc={doc} myId={myId} picking={picking} placing={placing} onPlace={place} />
            <SideColumn side="LIGHT" doc={doc} myId={myId} picking={picking} placing={placing} onPlace={place} />
          </div>
          {newcomers > 0 && (
            <section className="newcomers" data-testid="sides-newcomers" aria-label="Not on a side yet">
              <h3 className="newcomers__head">
                Not on a side yet <span className="side-col__count">{newcomers}</span>
              </h3>
              <ul className="newcomers__list">
                {doc.unassigned.map((p) => (
                  <PlayerRow key={p.userId} player={p} side={null} myId={myId} picking={picking} />
                ))}
              </ul>
              <p className="field__hint">
                {isOrganiser ? 'Re-balance to place them fairly, moving as few players as it can. Or tap one and pick a side.' : 'The organiser will put them on a side.'}
              </p>
            </section>
          )}
          {isOrganiser && holes > 0 && newcomers === 0 && (
            <p className="card__pad field__hint sides-card__holes">
              {holes} {plural(holes, 'player')} dropped out. Re-balance to even the sides again.
            </p>
          )}
        </>
      )}
    </Card>
  );
}
