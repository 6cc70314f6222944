// The box score: shots on goal by period, then per side the players who
// dressed with goals (power-play and shorthanded among them), assists and
// penalty minutes, the team's penalty minutes by type, and the goalies
// with shots and goals against, saves, save percentage, GAA and time in
// net.

import { Link } from 'react-router';
import type { GameDocument, GamePeriod, GameTeam } from '../../../lib/api-types';
import { gameTimeMs } from '../../../lib/game-clock';
import { jersey, periodShort, type GameSide } from '../../../lib/games';
import { serverNow } from '../../../lib/time-sync';
import { boxScore, pimByType } from '../model/box-score';
import { formatGaa, formatSavePct, formatToi, goalieLines } from '../model/goalie-lines';

const SHOT_PERIODS: GamePeriod[] = ['1', '2', '3', 'OT'];

function ShotsByPeriod({ game }: { game: GameDocument }) {
  const shots = game.shots;
  if (!shots) return null;
  const playedOt = game.period === 'OT' || game.period === 'SO' || (shots.home[3] ?? 0) + (shots.away[3] ?? 0) > 0;
  const periods = playedOt ? SHOT_PERIODS : SHOT_PERIODS.slice(0, 3);
  const row = (side: GameSide) => {
    const xs = shots[side];
    return (
      <tr key={side}>
        <th scope="row" className="stat-table__name">
          {game[side].name}
        </th>
        {periods.map((p, i) => (
          <td key={p}>{xs[i] ?? 0}</td>
        ))}
        <td className="stat-table__total" data-testid={`shots-total-${side}`}>
          {xs.reduce((a, b) => a + b, 0)}
        </td>
      </tr>
    );
  };
  return (
    <table className="stat-table stat-table--compact box-shots" data-testid="shots-by-period">
      <caption className="box-side__title">Shots on goal</caption>
      <thead>
        <tr>
          <th scope="col" className="stat-table__name">
            Team
          </th>
          {periods.map((p) => (
            <th key={p} scope="col">
              {periodShort(p)}
            </th>
          ))}
          <th scope="col">T</th>
        </tr>
      </thead>
      <tbody>
        {row('home')}
        {row('away')}
      </tbody>
    </table>
  );
}

function Goalies({ game, side }: { game: GameDocument; side: GameSide }) {
  const now = game.clock ? gameTimeMs(game.clock, serverNow()) : 0;
  const lines = goalieLines(game, side, now);
  if (lines.length === 0) return null;
  return (
    <table className="stat-table stat-table--compact box-goalies" data-testid={`goalies-${side}`}>
      <thead>
        <tr>
          <th scope="col" className="stat-table__rank">
            #
          </th>
          <th scope="col" className="stat-table__name">
            Goalie
          </th>
          <th scope="col" title="Shots against">SA</th>
          <th scope="col" title="Goals against">GA</th>
          <th scope="col" title="Saves">SV</th>
          <th scope="col" title="Save percentage">SV%</th>
          <th scope="col" title="Goals against per 60 minutes">GAA</th>
          <th scope="col" title="Time in net">TOI</th>
        </tr>
      </thead>
      <tbody>
        {lines.map((l) => (
          <tr key={l.player.userId}>
            <td className="stat-table__rank">{jersey(l.player.jerseyNumber).replace('#', '')}</td>
            <th scope="row" className="stat-table__name">
              <Link to={`/users/${l.player.userId}/stats`}>{l.player.displayName}</Link>
            </th>
            <td>{l.shotsAgainst}</td>
            <td>{l.goalsAgainst}</td>
            <td>{l.saves}</td>
            <td>{formatSavePct(l.savePct)}</td>
            <td>{formatGaa(l.gaa)}</td>
            <td>{formatToi(l.ms)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function PimLine({ game, team }: { game: GameDocument; team: GameTeam }) {
  const pim = pimByType(game, team.rosterId);
  const parts = [
    pim.minor ? `Minors ${pim.minor}` : null,
    pim.major ? `Majors ${pim.major}` : null,
    pim.misconduct ? `Misconducts ${pim.misconduct}` : null,
    pim.other ? `Other ${pim.other}` : null,
  ].filter(Boolean);
  if (parts.length === 0) return null;
  const total = pim.minor + pim.major + pim.misconduct + pim.other;
  return (
    <p className="box-side__pim" data-testid={`pim-${team.rosterId}`}>
      <strong>{total} PIM</strong> · {parts.join(' · ')}
    </p>
  );
}

function Side({ game, team, side }: { game: GameDocument; team: GameTeam; side: GameSide }) {
  const lines = boxScore(game, team);
  return (
    <section className="box-side" aria-label={team.name}>
      <h3 className="box-side__title">{team.name}</h3>
      {lines.length === 0 ? (
        <p className="empty-line">No players on this roster yet.</p>
      ) : (
        <table className="stat-table stat-table--compact">
          <thead>
            <tr>
              <th scope="col" className="stat-table__rank">
                #
              </th>
              <th scope="col" className="stat-table__name">
                Player
              </th>
              <th scope="col" title="Goals">G</th>
              <th scope="col" title="Assists">A</th>
              <th scope="col" title="Power-play goals">PPG</th>
              <th scope="col" title="Shorthanded goals">SHG</th>
              <th scope="col" title="Penalty minutes">PIM</th>
            </tr>
          </thead>
          <tbody>
            {lines.map((l) => (
              <tr key={l.player.userId}>
                <td className="stat-table__rank">{jersey(l.player.jerseyNumber).replace('#', '')}</td>
                <th scope="row" className="stat-table__name">
                  <Link to={`/users/${l.player.userId}/stats`}>{l.player.displayName}</Link>
                </th>
                <td>{l.goals || ''}</td>
                <td>{l.assists || ''}</td>
                <td>{l.ppGoals || ''}</td>
                <td>{l.shGoals || ''}</td>
                <td>{l.penaltyMinutes || ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PimLine game={game} team={team} />
      <Goalies game={game} side={side} />
    </section>
  );
}

export function BoxScore({ game }: { game: GameDocument }) {
  return (
    <div className="box-score-wrap">
      <ShotsByPeriod game={game} />
      <div className="box-score" data-testid="box-score">
        <Side game={game} team={game.home} side="home" />
        <Side game={game} team={game.away} side="away" />
      </div>
    </div>
  );
}
