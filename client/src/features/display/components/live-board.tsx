// The board of the arena display: both teams with their score, shots and
// who sits in the box with the seconds left (by jersey number, as arenas
// show them), the game clock and period huge in the middle, and the power
// play on the side that has it. Drawn every animation frame while the
// clock runs, from the clock the last message carried and the tab's
// estimate of the server's now: two screens in one rink agree to the
// frame without the server ticking anything.

import type { Game } from '../../../lib/api-types';
import { formatClock, formatMinutes, hasClock } from '../../../lib/game-clock';
import { penaltyClocks, strengthOf, type PenaltyClock, type Strength } from '../../../lib/game-strength';
import { periodLong, periodShort, type GameSide } from '../../../lib/games';
import { useGameClock, type LiveClock } from '../../../lib/use-game-clock';
import '../live-board.css';

/** The most penalties a side's box lists (two serve at once; a third waits). */
const BOX_ROWS = 3;

export interface BoardMiddle {
  big: string;
  small: string;
}

const total = (xs: readonly number[] | undefined) => (xs ?? []).reduce((a, b) => a + b, 0);

function Box({ clocks }: { clocks: PenaltyClock[] }) {
  if (clocks.length === 0) return null;
  return (
    <ul className="dg__box" aria-label="Penalties">
      {clocks.slice(0, BOX_ROWS).map((c) => (
        <li key={c.seq} className={`dg__pen${c.serving ? '' : ' dg__pen--waiting'}${c.shorthands ? '' : ' dg__pen--misconduct'}`} data-testid={`display-pen-${c.seq}`}>
          <span className="dg__pen-num">{c.number || '–'}</span>
          <span className="dg__pen-left" data-testid="display-pen-left">
            {formatMinutes(c.leftMs)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function Team({ game, side, flash, clocks, strength }: { game: Game; side: GameSide; flash: boolean; clocks: PenaltyClock[] | null; strength: Strength | null }) {
  const team = side === 'home' ? game.home : game.away;
  const score = side === 'home' ? game.homeScore : game.awayScore;
  const started = game.status === 'LIVE' || game.status === 'FINAL';
  const other = side === 'home' ? game.awayScore : game.homeScore;
  const won = game.status === 'FINAL' && score > other;
  const shots = game.shots ? total(game.shots[side]) : null;
  const pp = strength?.powerPlay === side;
  // An empty net is a pulled goalie (the side's last GOALIE entry put nobody
  // in), not a side nobody put a goalie in for.
  const lastChange = [...game.log].reverse().find((e) => e.type === 'GOALIE' && e.rosterId === team.rosterId);
  const emptyNet = game.status === 'LIVE' && game.goalies?.[side] === null && lastChange !== undefined && !lastChange.playerId;
  return (
    <section
      className={`dg__team dg__team--${side}${flash ? ' dg__team--goal' : ''}${won ? ' dg__team--won' : ''}${pp ? ' dg__team--pp' : ''}`}
      aria-label={`${side === 'home' ? 'Home' : 'Away'}: ${team.name}`}
    >
      <span className="dg__side">{side === 'home' ? 'Home' : 'Away'}</span>
      <span className="dg__name-wrap">
        <span className="dg__name" data-testid={`display-${side}-name`}>
          {team.name}
        </span>
      </span>
      {/* Before puck drop a dimmed 0 holds the place of the score (no blank bar). */}
      <span className={`dg__score${started ? '' : ' dg__score--pending'}`} data-testid={`display-${side}-score`}>
        {started ? score : 0}
      </span>
      {started && (shots !== null || pp || emptyNet) && (
        <span className="dg__facts">
          {shots !== null && (
            <span className="dg__shots" data-testid={`display-${side}-shots`}>
              <span className="dg__shots-label">Shots</span> {shots}
            </span>
          )}
          {pp && strength && (
            <span className="dg__pp" data-testid={`display-${side}-pp`}>
              Power play {strength.label}
            </span>
          )}
          {emptyNet && (
            <span className="dg__en" data-testid={`display-${side}-empty-net`}>
              Empty net
            </span>
          )}
        </span>
      )}
      {clocks && <Box clocks={clocks.filter((c) => c.side === side)} />}
      {flash && (
        <span className="dg__goal" aria-live="assertive">
          Goal!
        </span>
      )}
    </section>
  );
}

function ClockMiddle({ game, live, strength }: { game: Game; live: LiveClock; strength: Strength }) {
  const clock = game.clock;
  const intermission = clock?.phase === 'INTERMISSION';
  const label = intermission ? 'Intermission' : periodLong(game.period);
  const even = strength.powerPlay === null && strength.home < 5;
  return (
    <div className={`dg__mid dg__mid--clock${live.running ? ' dg__mid--running' : ''}${intermission ? ' dg__mid--break' : ''}`}>
      <span className="dg__small" data-testid="display-state">
        {label}
        {intermission && <span className="dg__next"> · {periodShort(game.period)} next</span>}
      </span>
      <span
        className={`dg__clock${live.leftMs < 60_000 ? ' dg__clock--tenths' : ''}`}
        data-testid="display-clock"
        data-remaining-ms={Math.round(live.leftMs)}
        data-sampled-at={live.sampledAt}
        data-running={live.running}
      >
        {formatClock(live.leftMs)}
      </span>
      {strength.powerPlay ? (
        <span className={`dg__strength dg__strength--${strength.powerPlay}`} data-testid="display-strength">
          {strength.label}
        </span>
      ) : (
        even && (
          <span className="dg__strength" data-testid="display-strength">
            {strength.home} on {strength.away}
          </span>
        )
      )}
    </div>
  );
}

function ClockedBoard({ game, flash }: { game: Game; flash: GameSide | null }) {
  const live = useGameClock(game.clock);
  if (!live) return null;
  const clocks = game.status === 'LIVE' ? penaltyClocks(game, live.gameMs) : [];
  const strength = strengthOf(clocks);
  return (
    <div className={`dg dg--clocked dg--${game.status.toLowerCase()}`} data-status={game.status}>
      <Team game={game} side="home" flash={flash === 'home'} clocks={clocks} strength={strength} />
      <ClockMiddle game={game} live={live} strength={strength} />
      <Team game={game} side="away" flash={flash === 'away'} clocks={clocks} strength={strength} />
    </div>
  );
}

/**
 * The board: with the game clock while the game is live and has one; a
 * game not started, over, or from before the clock shows its state in the
 * middle (`middle`) instead.
 */
export function LiveBoard({ game, flash, middle }: { game: Game; flash: GameSide | null; middle: BoardMiddle }) {
  if (game.status === 'LIVE' && hasClock(game.clock, game.period)) return <ClockedBoard game={game} flash={flash} />;
  return (
    <div className={`dg dg--${game.status.toLowerCase()}`} data-status={game.status}>
      <Team game={game} side="home" flash={flash === 'home'} clocks={null} strength={null} />
      <div className="dg__mid" data-testid="display-state">
        <span className="dg__big">{middle.big}</span>
        {middle.small && <span className="dg__small">{middle.small}</span>}
      </div>
      <Team game={game} side="away" flash={flash === 'away'} clocks={null} strength={null} />
    </div>
  );
}
