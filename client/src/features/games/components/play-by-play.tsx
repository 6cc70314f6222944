// The game log as a scoresheet: newest first, grouped by period, goals with
// scorer and assists (names and jersey numbers) and the running score,
// penalties with minutes, period ends. The log only holds what stands, so
// an undone goal simply disappears from here.

import type { GameDocument, GamePeriod } from '../../../lib/api-types';
import { describeLog, periodLong, timeOfDay, type DescribedEntry } from '../../../lib/games';

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
  const isEvent = d.entry.type === 'GOAL' || d.entry.type === 'PENALTY';
  return (
    <li className={`pbp__item pbp__item--${kind}${d.side ? ` pbp__item--${d.side}` : ''}`} data-testid={`log-${d.entry.seq}`}>
      <span className="pbp__marker" aria-hidden="true" />
      <div className="pbp__body">
        <p className="pbp__title">
          <strong>{d.title}</strong>
          {d.team && <span className="pbp__team">{d.team}</span>}
          <time className="pbp__time" dateTime={d.entry.createdAt}>
            {timeOfDay(d.entry.createdAt)}
          </time>
        </p>
        {isEvent && d.primary && (
          <p className="pbp__primary">
            {d.primary}
            {d.entry.type === 'PENALTY' && d.secondary && <span className="pbp__minutes"> · {d.secondary}</span>}
          </p>
        )}
        {d.entry.type === 'GOAL' && d.secondary && <p className="pbp__secondary">{d.secondary}</p>}
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
  const described = describeLog(game);
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
