// The game log as a scoresheet: newest first, grouped by period, each line
// at the game-clock time it happened ("12:34" left), goals with scorer,
// assists, PP/SH/EN and the penalty they ended, and the running score;
// penalties with what was called and the minutes; goalie changes; period
// ends. Shots are counted in the box score, not listed. The log only holds
// what stands, so an undone goal simply disappears from here.

import type { GameDocument, GamePeriod } from '../../../lib/api-types';
import { describeLog, entryClock, GOAL_FLAG_LABELS, periodLong, type DescribedEntry } from '../../../lib/games';

interface PeriodGroup {
  period: GamePeriod | null;
  entries: DescribedEntry[];
}

/** Newest period first, newest entry first within it. */
function groups(described: DescribedEntry[]): PeriodGroup[] {
  const out: PeriodGroup[] = [];
  for (const d of [...described].reverse()) {
    const period = d.entry.period;
    const last = out[out.length - 1];
    if (last && last.period === period) last.entries.push(d);
    else out.push({ period, entries: [d] });
  }
  return out;
}

function Entry({ d, game }: { d: DescribedEntry; game: GameDocument }) {
  const kind = d.entry.type.toLowerCase().replace('_', '-');
  const isEvent = d.entry.type === 'GOAL' || d.entry.type === 'PENALTY' || d.entry.type === 'GOALIE';
  const clock = entryClock(d.entry);
  return (
    <li className={`pbp__item pbp__item--${kind}${d.side ? ` pbp__item--${d.side}` : ''}`} data-testid={`log-${d.entry.seq}`}>
      <span className="pbp__marker" aria-hidden="true" />
      <div className="pbp__body">
        <p className="pbp__title">
          <strong>{d.title}</strong>
          {d.flags.map((f) => (
            <abbr key={f} className={`pbp__flag pbp__flag--${f.toLowerCase()}`} title={GOAL_FLAG_LABELS[f]} data-testid={`flag-${f}`}>
              {f}
            </abbr>
          ))}
          {d.team && <span className="pbp__team">{d.team}</span>}
          {clock && (
            <span className="pbp__time" title="Time left in the period" data-testid="entry-clock">
              {clock}
            </span>
          )}
        </p>
        {isEvent && d.primary && (
          <p className="pbp__primary">
            {d.primary}
            {d.entry.type === 'PENALTY' && d.secondary && <span className="pbp__minutes"> · {d.secondary}</span>}
          </p>
        )}
        {d.entry.type === 'GOAL' && d.secondary && <p className="pbp__secondary">{d.secondary}</p>}
        {d.release && (
          <p className="pbp__release" data-testid="entry-release">
            {d.release}
          </p>
        )}
      </div>
      {d.entry.type === 'GOAL' && (
        <span className="pbp__score" aria-label={`Score ${game.home.name} ${d.homeScore}, ${game.away.name} ${d.awayScore}`}>
          {d.homeScore}–{d.awayScore}
        </span>
      )}
    </li>
  );
}

export function PlayByPlay({ game, limit, emptyText = 'Nothing on the scoresheet yet.' }: { game: GameDocument; limit?: number; emptyText?: string }) {
  // Shots are numbers, not stories: the box score counts them per period.
  const described = describeLog(game).filter((d) => d.entry.type !== 'SHOT');
  const shown = limit ? described.slice(-limit) : described;
  if (shown.length === 0) return <p className="empty-line" data-testid="play-by-play-empty">{emptyText}</p>;
  return (
    <div className="pbp" data-testid="play-by-play">
      {groups(shown).map((g, i) => (
        <section key={`${g.period ?? 'none'}-${i}`} className="pbp__group">
          {g.period && <h3 className="pbp__period">{periodLong(g.period)}</h3>}
          <ol className="pbp__list">
            {g.entries.map((d) => (
              <Entry key={d.entry.seq} d={d} game={game} />
            ))}
          </ol>
        </section>
      ))}
    </div>
  );
}
