// Games as every screen reads them: the public REST reads of a game and a
// season, their live topics (`game:ID`, whose small updates are merged into
// the last snapshot by lib/merge-game-update.ts, and `season:ID`), "newest
// wins" merging of what the REST read, the topic and a command's reply say,
// and how periods, statuses and players read on screen. Shared by the games
// pages and the arena displays (features may not import each other).

import { useEffect, useMemo } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './api';
import type {
  Game,
  GameDocument,
  GameLogEntry,
  GamePeriod,
  GamePlayer,
  GameScheduleEntry,
  GameStatus,
  PenaltyKind,
  SeasonDetail,
  SeasonDocument,
  Standing,
} from './api-types';
import { normalizeGame } from './game-wire';
import { mergeGameUpdate } from './merge-game-update';
import { rinkClock, rinkTimeRange } from './time-zone';
import { mergeTopicUpdates, useTopic } from './ws';

const enc = encodeURIComponent;

export const GAME_TOPIC = 'game';
export const gameTopic = (id: string) => `${GAME_TOPIC}:${id}`;
export const seasonTopic = (id: string) => `season:${id}`;

// A `game:` update carries the scoreboard and the log's tail, not the whole
// state: the socket merges it into what the topic holds (and re-subscribes
// for a snapshot when it cannot), so every reader of the topic sees a whole
// game. Registered here, where the game topic is read.
mergeTopicUpdates(GAME_TOPIC, mergeGameUpdate);

export const gameKeys = {
  detail: (id: string) => ['games', id] as const,
  scorekeepers: (id: string) => ['games', id, 'scorekeepers'] as const,
};

export const seasonGameKeys = {
  season: (id: string) => ['seasons', id] as const,
  schedule: (id: string) => ['seasons', id, 'schedule'] as const,
  standings: (id: string) => ['seasons', id, 'standings'] as const,
  leaders: (id: string) => ['seasons', id, 'leaders'] as const,
};

/** How long pushes are gathered before a dependent REST read is refreshed. */
const REFRESH_DEBOUNCE_MS = 400;

export const fetchGame = (id: string, signal?: AbortSignal) => api.get<Game>(`/games/${enc(id)}`, { signal });

export function useGameQuery(id: string) {
  return useQuery({ queryKey: gameKeys.detail(id), queryFn: ({ signal }) => fetchGame(id, signal) });
}

/** The newer of two game states by version (the topic's seq); either may be missing. */
export function newestGameDoc<T extends GameDocument>(a: T | null | undefined, b: T | null | undefined): T | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return b.version > a.version ? b : a;
}

/** Statuses in which a push can carry a change only the REST read shows (the time, after a reschedule). */
const PRE_GAME: ReadonlySet<GameStatus> = new Set(['SCHEDULED', 'POSTPONED', 'CANCELLED']);

/**
 * One game, live: the REST read paints first (and adds `seasonId`,
 * `scheduledAt` and the viewer's rights); the `game:ID` topic's state (its
 * snapshot with the updates merged in, see above) and, when
 * given, the reply to the viewer's own last action replace the state
 * whenever they are newer. `isLive` says a topic snapshot has arrived.
 */
export function useLiveGame(id: string, reply: GameDocument | null = null) {
  const query = useGameQuery(id);
  const live = useTopic<GameDocument>(gameTopic(id));
  const queryClient = useQueryClient();
  const rest = query.data ?? null;
  const newest = newestGameDoc<GameDocument>(newestGameDoc<GameDocument>(rest, live?.data ?? null), reply);
  // Entries made whole (the wire leaves empty fields out: lib/game-wire.ts).
  const game: Game | null = useMemo(() => (rest && newest ? normalizeGame({ ...rest, ...newest }) : null), [rest, newest]);

  // Before the game goes live a push may be a reschedule, whose new time
  // only the REST read carries: read it again (gathered, never cancelling a
  // read in flight). During play the pushed state is all there is to know.
  const pushedVersion = live?.data.version ?? null;
  const pushedStatus = live?.data.status ?? null;
  const restVersion = rest?.version ?? null;
  useEffect(() => {
    if (pushedVersion === null || restVersion === null || pushedVersion <= restVersion) return undefined;
    if (!pushedStatus || !PRE_GAME.has(pushedStatus)) return undefined;
    const t = setTimeout(() => {
      void queryClient.refetchQueries({ queryKey: gameKeys.detail(id), exact: true }, { cancelRefetch: false });
    }, REFRESH_DEBOUNCE_MS);
    return () => clearTimeout(t);
  }, [pushedVersion, pushedStatus, restVersion, id, queryClient]);

  return { game, query, isLive: live !== null, topicSeq: live?.seq ?? null };
}

/** A season (`GET /seasons/ID`), the one read of it every screen shares; idle without an id. */
export function useSeasonQuery(id: string | null) {
  return useQuery({
    queryKey: seasonGameKeys.season(id ?? ''),
    queryFn: ({ signal }) => api.get<SeasonDetail>(`/seasons/${enc(id ?? '')}`, { signal }),
    enabled: Boolean(id),
  });
}

/**
 * A season's standings and schedule, live: REST reads paint first, then
 * every `season:ID` push (any game of the season changed) replaces both.
 */
export function useLiveSeason(id: string) {
  const live = useTopic<SeasonDocument>(seasonTopic(id));
  const schedule = useQuery({
    queryKey: seasonGameKeys.schedule(id),
    queryFn: ({ signal }) => api.get<GameScheduleEntry[]>(`/seasons/${enc(id)}/schedule`, { signal }),
  });
  const standings = useQuery({
    queryKey: seasonGameKeys.standings(id),
    queryFn: ({ signal }) => api.get<Standing[]>(`/seasons/${enc(id)}/standings`, { signal }),
  });
  const doc = live?.data ?? null;
  return {
    schedule: doc?.schedule ?? schedule.data ?? null,
    standings: doc?.standings ?? standings.data ?? null,
    /** The topic's seq (null before its first snapshot): bump-driven refreshes key on it. */
    seq: live?.seq ?? null,
    isLive: live !== null,
    isPending: !doc && (schedule.isPending || standings.isPending),
    error: doc ? null : (schedule.error ?? standings.error ?? null),
    refetch: () => Promise.all([schedule.refetch(), standings.refetch()]),
  };
}

// ── How games read ─────────────────────────────────────────────────────────

const ORDINAL_PERIOD: Record<GamePeriod, string> = { '1': '1st', '2': '2nd', '3': '3rd', OT: 'OT', SO: 'SO' };

/** "1st", "2nd", "3rd", "OT", "SO". */
export function periodShort(p: GamePeriod | null): string {
  return p ? ORDINAL_PERIOD[p] : '';
}

/** "1st period", "Overtime", "Shootout". */
export function periodLong(p: GamePeriod | null): string {
  if (!p) return '';
  if (p === 'OT') return 'Overtime';
  if (p === 'SO') return 'Shootout';
  return `${ORDINAL_PERIOD[p]} period`;
}

export const GAME_STATUS_LABELS: Record<GameStatus, string> = {
  SCHEDULED: 'Scheduled',
  LIVE: 'Live',
  FINAL: 'Final',
  POSTPONED: 'Postponed',
  CANCELLED: 'Cancelled',
};

/** The period a FINAL game ended in, as the "/OT" of "Final/OT" (regulation: ''). */
function finalSuffix(p: GamePeriod | null): string {
  return p === 'OT' || p === 'SO' ? ` · ${p}` : '';
}

/**
 * The one line under a score: "2nd period", "End of 1st", "Final · OT",
 * "Scheduled"… `lastType`/`lastPeriod` are the newest log entry's, so a
 * period that just ended reads as an intermission rather than the next one.
 */
export function gameStateLine(g: Pick<GameDocument, 'status' | 'period'> & { log?: GameDocument['log'] }): string {
  switch (g.status) {
    case 'LIVE': {
      const last = g.log && g.log.length > 0 ? g.log[g.log.length - 1] : null;
      if (last?.type === 'END_PERIOD' && last.period) return `End of ${periodShort(last.period)}`;
      return periodLong(g.period) || 'Live';
    }
    case 'FINAL':
      return `Final${finalSuffix(g.period)}`;
    default:
      return GAME_STATUS_LABELS[g.status];
  }
}

/** A schedule line's state: "LIVE · 2nd", "Final · OT", "Postponed", or the start time. */
/** A schedule row's state; a game not started shows its face-off on the rink's clock (`zone`, lib/rink-time.ts). */
export function scheduleStateLine(e: Pick<GameScheduleEntry, 'status' | 'period' | 'scheduledAt'>, zone: string | null = null): string {
  switch (e.status) {
    case 'LIVE':
      return e.period ? `Live · ${periodShort(e.period)}` : 'Live';
    case 'FINAL':
      return `Final${finalSuffix(e.period)}`;
    case 'SCHEDULED':
      return zone ? rinkTimeRange(e.scheduledAt, null, zone) : rinkClock(e.scheduledAt, null);
    default:
      return GAME_STATUS_LABELS[e.status];
  }
}

/** Whether a game has a score worth showing (it started). */
export function hasScore(status: GameStatus): boolean {
  return status === 'LIVE' || status === 'FINAL';
}

/** "#12", or "" without a number. */
export function jersey(n: number | null | undefined): string {
  return n === null || n === undefined ? '' : `#${n}`;
}


/** Goal difference with its sign: "+3", "0", "-2". */
export function goalDiff(s: Pick<Standing, 'goalsFor' | 'goalsAgainst'>): string {
  const d = s.goalsFor - s.goalsAgainst;
  return d > 0 ? `+${d}` : String(d);
}

// ── The game log as people read it ─────────────────────────────────────────

export type GameSide = 'home' | 'away';

export function sideOf(game: Pick<GameDocument, 'homeRosterId' | 'awayRosterId'>, rosterId: string | null): GameSide | null {
  if (rosterId === game.homeRosterId) return 'home';
  if (rosterId === game.awayRosterId) return 'away';
  return null;
}

export function findPlayer(game: Pick<GameDocument, 'home' | 'away' | 'homeRosterId' | 'awayRosterId'>, rosterId: string | null, userId: string | null): GamePlayer | null {
  if (!userId) return null;
  const side = sideOf(game, rosterId);
  const team = side === 'home' ? game.home : side === 'away' ? game.away : null;
  return team?.players.find((p) => p.userId === userId) ?? null;
}

/** "#12 Alice Ames", or the name alone without a number. */
export function playerTag(player: Pick<GamePlayer, 'jerseyNumber' | 'displayName'>): string {
  const n = jersey(player.jerseyNumber);
  return n ? `${n} ${player.displayName}` : player.displayName;
}

/**
 * A player the log names, as people read it: from the side's player list
 * (log entries carry ids only since game night; an older entry's own name
 * is the fallback for a player no longer on the roster).
 */
export function tagFor(game: Pick<GameDocument, 'home' | 'away' | 'homeRosterId' | 'awayRosterId'>, rosterId: string | null, userId: string, name?: string | null): string {
  const p = findPlayer(game, rosterId, userId);
  return p ? playerTag(p) : name || 'Unknown player';
}

export const PENALTY_LABELS: Record<PenaltyKind, string> = {
  MINOR: 'Minor',
  DOUBLE_MINOR: 'Double minor',
  MAJOR: 'Major',
  MISCONDUCT: 'Misconduct',
  GAME_MISCONDUCT: 'Game misconduct',
  OTHER: 'Penalty',
};

/** What a penalty entry was: its `penalty`, else what its minutes name (docs/game-night.md › Entries). */
export function penaltyKindOf(entry: Pick<GameLogEntry, 'penalty' | 'minutes'>): PenaltyKind {
  if (entry.penalty) return entry.penalty;
  switch (entry.minutes) {
    case 2:
      return 'MINOR';
    case 4:
      return 'DOUBLE_MINOR';
    case 5:
      return 'MAJOR';
    case 10:
      return 'MISCONDUCT';
    default:
      return 'OTHER';
  }
}

/** "Minor · 2 min", "Game misconduct · 10 min", "3 min". */
export function penaltyLine(entry: Pick<GameLogEntry, 'penalty' | 'minutes'>): string | null {
  const kind = penaltyKindOf(entry);
  const minutes = entry.minutes !== null ? `${entry.minutes} min` : null;
  if (kind === 'OTHER') return minutes;
  return minutes ? `${PENALTY_LABELS[kind]} · ${minutes}` : PENALTY_LABELS[kind];
}

export interface DescribedEntry {
  entry: GameLogEntry;
  side: GameSide | null;
  /** "Goal", "Penalty", "Shot", "Goalie", "Puck drop", "End of 1st", "Final". */
  title: string;
  /** The team's name for goals, penalties, shots and goalie changes. */
  team: string | null;
  /** GOAL: the scorer; PENALTY: the player; GOALIE: the goalie in, or "Empty net". */
  primary: string | null;
  /** GOAL: "Assists: #4 Bob Burns, #9 Cara Cole" or "Unassisted"; PENALTY: "Minor · 2 min". */
  secondary: string | null;
  /** GOAL: "PP", "SH", "EN" as they apply. */
  flags: GoalFlag[];
  /** GOAL: the penalty it ended ("Ends #12 Bruno Berg's minor"); PENALTY: "Ended by a power-play goal at 12:34". */
  release: string | null;
  /** The score right after this entry. */
  homeScore: number;
  awayScore: number;
}

export type GoalFlag = 'PP' | 'SH' | 'EN';

export const GOAL_FLAG_LABELS: Record<GoalFlag, string> = { PP: 'Power-play goal', SH: 'Shorthanded goal', EN: 'Empty-net goal' };

function goalFlags(entry: GameLogEntry): GoalFlag[] {
  const flags: GoalFlag[] = [];
  if (entry.strength === 'PP') flags.push('PP');
  if (entry.strength === 'SH') flags.push('SH');
  if (entry.emptyNet) flags.push('EN');
  return flags;
}

/** "12:34" left in the period when it happened, or null for an entry from before the clock. */
export function entryClock(entry: Pick<GameLogEntry, 'clockMs'>): string | null {
  if (entry.clockMs === null || entry.clockMs === undefined) return null;
  const secs = Math.ceil(Math.max(0, entry.clockMs) / 1000);
  return `${Math.floor(secs / 60)}:${String(secs % 60).padStart(2, '0')}`;
}

/** Every entry of the log, oldest first, with names, numbers and the running score. */
export function describeLog(game: GameDocument): DescribedEntry[] {
  let home = 0;
  let away = 0;
  const bySeq = new Map(game.log.map((e) => [e.seq, e]));
  const releasedBy = new Map(game.log.filter((e) => e.type === 'GOAL' && e.releases != null).map((e) => [e.releases as number, e]));
  return game.log.map((entry) => {
    const side = sideOf(game, entry.rosterId);
    const team = side === 'home' ? game.home.name : side === 'away' ? game.away.name : null;
    let title: string;
    let primary: string | null = null;
    let secondary: string | null = null;
    let release: string | null = null;
    switch (entry.type) {
      case 'GOAL': {
        if (side === 'home') home += 1;
        if (side === 'away') away += 1;
        title = 'Goal';
        primary = entry.playerId ? tagFor(game, entry.rosterId, entry.playerId, entry.playerName) : 'Scorer not recorded';
        const assists = entry.assistIds.map((id, i) => tagFor(game, entry.rosterId, id, entry.assistNames?.[i]));
        secondary = entry.playerId ? (assists.length > 0 ? `Assists: ${assists.join(', ')}` : 'Unassisted') : null;
        const ended = entry.releases != null ? bySeq.get(entry.releases) : undefined;
        if (ended?.type === 'PENALTY') {
          const who = ended.playerId ? tagFor(game, ended.rosterId, ended.playerId, ended.playerName) : 'the bench';
          release = `Ends ${who}’s ${PENALTY_LABELS[penaltyKindOf(ended)].toLowerCase()}`;
        }
        break;
      }
      case 'PENALTY':
        title = 'Penalty';
        primary = entry.playerId ? tagFor(game, entry.rosterId, entry.playerId, entry.playerName) : 'Unknown player';
        secondary = penaltyLine(entry);
        {
          const goal = releasedBy.get(entry.seq);
          const at = goal ? entryClock(goal) : null;
          if (goal) release = `Ended by a ${goal.strength === 'SH' ? 'shorthanded' : 'power-play'} goal${at ? ` at ${at}` : ''}`;
        }
        break;
      case 'SHOT':
        title = 'Shot';
        break;
      case 'GOALIE':
        title = entry.playerId ? 'Goalie' : 'Goalie pulled';
        primary = entry.playerId ? tagFor(game, entry.rosterId, entry.playerId, entry.playerName) : 'Empty net';
        break;
      case 'START':
        title = 'Puck drop';
        break;
      case 'END_PERIOD':
        title = entry.period ? `End of ${periodShort(entry.period)}` : 'End of period';
        break;
      case 'FINAL':
        title = 'Final';
        break;
      default:
        title = 'Entry';
    }
    const flags = entry.type === 'GOAL' ? goalFlags(entry) : [];
    return { entry, side, title, team, primary, secondary, flags, release, homeScore: home, awayScore: away };
  });
}

/** The newest goal, described (for the arena's goal banner). */
export function lastGoal(game: GameDocument): DescribedEntry | null {
  const goals = describeLog(game).filter((d) => d.entry.type === 'GOAL');
  return goals.length > 0 ? (goals[goals.length - 1] ?? null) : null;
}
