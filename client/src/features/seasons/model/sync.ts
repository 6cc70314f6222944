// Season sync as the server sends it (docs/sync.md › API, CONTRACT.md ›
// Season sync) and the pure rules the screens follow: what the card says
// about a season's sync, how a failure reads, which external teams wait for
// a match or a confirmation.

import type { LastSync, SeasonDetail, SyncGameCounts } from '../../../lib/api-types';

export type SyncFormat = 'DAYSMART' | 'ICALENDAR' | 'CSV';
export type SyncTrigger = 'MANUAL' | 'SCHEDULED';

/** `POST /seasons/{id}/sync` and every item of `GET /seasons/{id}/sync-runs`. */
export interface SyncReport {
  id: string;
  trigger: SyncTrigger;
  /** False only in the history: a failed run, with `error` and zero counts. */
  ok: boolean;
  /** Null on a run that failed before the source was read. */
  format: SyncFormat | null;
  rosters: { created: number; updated: number; matched: number; unmatched: number };
  games: SyncGameCounts;
  events: { created: number; updated: number };
  /** Rows of the source that could not be read (the rest was imported). */
  errors: string[];
  statements: number;
  startedAt: string;
  finishedAt: string;
  error?: { code: string; message: string } | null;
}

export type MatchSource = 'AUTO' | 'MANUAL';

export interface RosterClaim {
  teamId: string;
  teamName: string;
  /** The user who asked (one of the team's owner and managers). */
  claimedBy: string;
  claimedAt: string;
}

export interface TeamRef {
  teamId: string;
  teamName: string;
}

/** A team as the league's schedule names it (`GET /seasons/{id}/external-rosters`). */
export interface ExternalRoster {
  id: string;
  externalId: string;
  name: string;
  originalDivision: string | null;
  url: string | null;
  isMatched: boolean;
  teamId: string | null;
  teamName: string | null;
  divisionMappingId: string | null;
  matchSource: MatchSource | null;
  claim: RosterClaim | null;
  /** Our teams it might be, for unmatched ones. */
  suggestions: TeamRef[];
}

/** A game as the league's schedule has it (`GET /seasons/{id}/external-games`, by `dateTime`). */
export interface ExternalGame {
  id: string;
  externalId: string;
  /** UTC. */
  dateTime: string;
  rink: string | null;
  homeGoals: number | null;
  awayGoals: number | null;
  gameType: string | null;
  homeRosterId: string | null;
  awayRosterId: string | null;
  /** The EXTERNAL_GAME event, when a team of the game is matched. */
  eventId: string | null;
  homeName: string;
  awayName: string;
  /** Gone from the source (or cancelled there); its event is cancelled. */
  removed: boolean;
}

export const FORMAT_LABELS: Record<SyncFormat, string> = {
  DAYSMART: 'DaySmart',
  ICALENDAR: 'iCalendar',
  CSV: 'CSV',
};

/** A failure's code in words, as a title above the server's own reason. */
const FAILURE_TITLES: Record<string, string> = {
  not_a_schedule: 'That address doesn’t serve a schedule',
  fetch_refused: 'Rinkside won’t fetch from that address',
  fetch_failed: 'The schedule could not be fetched',
  too_large: 'The schedule is too large (over 5 MB)',
  too_slow: 'The schedule took too long to arrive (over 10 s)',
  sync_running: 'A sync is already running',
  validation: 'There is no schedule to sync',
  validation_failed: 'There is no schedule to sync',
};

export function failureTitle(code: string): string {
  return FAILURE_TITLES[code] ?? 'The sync failed';
}

/** "Ice Owls’ staff", "Top Shelf’s staff". */
export function possessive(name: string): string {
  return /s$/i.test(name.trim()) ? `${name}’` : `${name}’s`;
}

/** When the last successful sync finished, from what the season says. */
export function lastSuccessAt(season: Pick<SeasonDetail, 'lastSyncAt' | 'lastSync'>): string | null {
  if (season.lastSyncAt) return season.lastSyncAt;
  return season.lastSync?.ok ? season.lastSync.finishedAt : null;
}

/** The card's headline state for everyone. */
export type SyncState =
  /** Synced at least once; `next` when the scheduler will run again. */
  | { kind: 'synced'; lastAt: string; next: string | null }
  /** On a timer but nothing imported yet. */
  | { kind: 'pending'; next: string | null }
  | { kind: 'off' };

export function syncState(season: Pick<SeasonDetail, 'lastSyncAt' | 'lastSync' | 'nextSyncAt' | 'syncEnabled'>): SyncState {
  const lastAt = lastSuccessAt(season);
  const next = season.syncEnabled ? season.nextSyncAt : null;
  if (lastAt) return { kind: 'synced', lastAt, next };
  if (season.syncEnabled) return { kind: 'pending', next };
  return { kind: 'off' };
}

/** The newest run failed: what staff are warned about. */
export function lastFailure(lastSync: LastSync | null): { code: string; message: string; at: string } | null {
  if (!lastSync || lastSync.ok) return null;
  return { code: lastSync.error?.code ?? 'fetch_failed', message: lastSync.error?.message ?? 'The sync failed.', at: lastSync.finishedAt };
}

/** A claim staff still have to decide: not already matched to the claimed team. */
export function openClaim(r: ExternalRoster): RosterClaim | null {
  if (!r.claim) return null;
  if (r.isMatched && r.teamId === r.claim.teamId) return null;
  return r.claim;
}

export interface RosterGroups {
  claims: ExternalRoster[];
  unmatched: ExternalRoster[];
  matched: ExternalRoster[];
}

const byDivisionThenName = (a: ExternalRoster, b: ExternalRoster) =>
  (a.originalDivision ?? '').localeCompare(b.originalDivision ?? '') || a.name.localeCompare(b.name);

/** The league's teams for the matching screen: claims to decide, then unmatched, then matched. */
export function groupRosters(rosters: readonly ExternalRoster[]): RosterGroups {
  const sorted = [...rosters].sort(byDivisionThenName);
  return {
    claims: sorted.filter((r) => openClaim(r) !== null),
    unmatched: sorted.filter((r) => !r.isMatched),
    matched: sorted.filter((r) => r.isMatched),
  };
}

/** "40 new · 2 updated · 1 removed" (no zero parts; "nothing changed" when all are). */
export function gameCountsText(g: SyncGameCounts): string {
  const parts: string[] = [];
  if (g.created) parts.push(`${g.created} new`);
  if (g.updated) parts.push(`${g.updated} updated`);
  if (g.removed) parts.push(`${g.removed} removed`);
  if (parts.length === 0) return g.unchanged ? 'nothing changed' : 'no games';
  return parts.join(' · ');
}
