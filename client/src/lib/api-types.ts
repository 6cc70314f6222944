// Wire types shared by every feature, by the names the features use: each
// is the schema of the OpenAPI document the server serves, generated into
// ./api/schema.d.ts (`npm run api:generate`; docs/openapi.md › The client's
// types). What the document does not describe is written here.

import type { components } from './api/schema';

type Schemas = components['schemas'];

export const PROFILE_TYPES = [
  'PLAYER',
  'COACH',
  'REFEREE',
  'SCORE_KEEPER',
  'FACILITY_MANAGER',
  'FAN',
] as const;
export type ProfileType = Schemas['ProfileType'];

export const HOCKEY_POSITIONS = [
  'CENTER',
  'LEFT_WING',
  'RIGHT_WING',
  'LEFT_DEFENSE',
  'RIGHT_DEFENSE',
  'GOALIE',
] as const;
export type HockeyPosition = Schemas['HockeyPosition'];

export const SKILL_LEVELS = ['BEGINNER', 'INTERMEDIATE', 'ADVANCED', 'PROFESSIONAL'] as const;
export type SkillLevel = Schemas['SkillLevel'];

/** `PUT /users/{id}/payment-collection`: whether a person may collect payments, as it now stands. */
export type PaymentCollection = Schemas['Collection'];

/** The signed-in user, as `GET /me` answers. */
export type User = Schemas['User'];

export type PlayerPosition = Schemas['PlayerPosition'];

/** Anyone's profile as others see it. */
export type PublicUser = Schemas['PublicUser'];

export type Facility = Schemas['Facility'];

export type Team = Schemas['Team'];

/** Every list endpoint pages by keyset: pass `nextCursor` back as `cursor`. */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

// ── Events ────────────────────────────────────────────────────────────────

export const EVENT_TYPES = ['GAME', 'PRACTICE', 'PUBLIC_SKATING', 'WATCH_PARTY', 'OTHER', 'EXTERNAL_GAME'] as const;
export type EventType = Schemas['EventType'];

export type TeamRole = Schemas['TeamRole'];

/** The viewer's own answer to an event. */
export type RsvpStatus = Schemas['RsvpStatus'];

export type EventGroup = Schemas['Group'];

/** How the event page splits attendees into groups (jersey colours). */
export type GroupConfig = Schemas['GroupConfig'];

export type EventTeamLink = Schemas['EventTeam'];

/** The viewer's standing, on single reads (`GET /events/{id}`, create, edit). */
export interface EventViewer {
  isOrganiser: boolean;
  /** May read who dropped late and the series' whole record: the organisers and the linked teams' managers. */
  canReadHistory: boolean;
  /** Staff of the event's facility, who may list it there or take the rink's name off. */
  canHost: boolean;
  /** Organiser who has payment collection turned on. */
  canCollectPayments: boolean;
  status: RsvpStatus | null;
  waitlistRank: number | null;
  position: HockeyPosition | null;
  /** Own payment state; null when not attending. */
  isPaid: boolean | null;
  /** The side the organiser put me on (docs/sides-and-bill.md); null before teams are made or when not on one. */
  side: Side | null;
  /** What I still owe for the ice, in cents of `currency`; null when nothing is owed or there is no bill. */
  owesCents: number | null;
  /** What I paid, when marked paid; null otherwise. */
  paidCents: number | null;
  /** Money of mine the organiser holds beyond my share (I paid and dropped out, or paid more than the new share). */
  creditCents: number | null;
  /** ISO 4217: the rink's, or the bill's own for an event without a rink. */
  currency: string | null;
  /** I am one of the event's regulars (its series' list, or a linked team's roster; docs/pickup-night.md). */
  isRegular: boolean;
}

/** An event (named so it does not shadow the DOM's `Event`). */
export interface RinkEvent {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  startDate: string;
  endDate: string | null;
  imageUrl: string | null;
  creatorId: string;
  facilityId: string | null;
  /**
   * Listed at its facility under the rink's name (made, scheduled or listed
   * by the rink's staff). False for a community event at the rink, and for
   * an event without a facility.
   */
  hostedByFacility: boolean;
  seasonId: string | null;
  externalHomeTeamName: string | null;
  externalAwayTeamName: string | null;
  externalRink: string | null;
  homeScore: number | null;
  awayScore: number | null;
  eventType: EventType;
  /** Null = unlimited. */
  maxSkaters: number | null;
  maxGoalies: number | null;
  groupConfig: GroupConfig | null;
  /** The attendees document's version (the `seq` of the `event:ID` topic). */
  version: number;
  cancelledAt: string | null;
  /** Why the organiser cancelled it (null when they did not say, or not cancelled). */
  cancelReason: string | null;
  createdAt: string;
  updatedAt: string;
  teams: EventTeamLink[];
  /** The weekly series it was made in (docs/series.md); null for a one-off. */
  seriesId: string | null;
  /** The RSVP rules as moments everyone may read (docs/pickup-night.md); fields null when off. */
  rsvpRules: EventRsvpRules;
  /** Only on single reads by a signed-in viewer. */
  viewer?: EventViewer;
}

// ── The organiser's pickup night (docs/pickup-night.md) ──────────────────

/** What everyone reads of an event's RSVP rules: the moments they make. */
export interface EventRsvpRules {
  /** A drop-out this close to the start is late; null = the default (24 h). */
  lateWindowMinutes: number | null;
  /** RFC 3339: places are the regulars' until then; null = open to all. */
  openToAllAt: string | null;
  /** RFC 3339: RSVPs lock then; null = no lock. */
  closesAt: string | null;
  minSkaters: number | null;
  minGoalies: number | null;
  /** RFC 3339: when the game-day check runs; null = no check. */
  shortCheckAt: string | null;
}

/** The six rules, in minutes before puck drop (null = off): what `PUT …/rsvp-rules` takes, all required. */
export interface RsvpRulesInput {
  /** 0–20,160; null = the default 1,440. */
  lateWindowMinutes: number | null;
  /** 0–20,160. */
  regularsFirstMinutes: number | null;
  /** 0–10,080. */
  cutoffMinutes: number | null;
  /** 0–500. */
  minSkaters: number | null;
  minGoalies: number | null;
  /** 0–10,080; needs a minimum. */
  shortCheckMinutes: number | null;
}

/** Where a regular comes from: the series' own list, or a linked team's roster. */
export type RegularSource = 'SERIES' | 'ROSTER';

export type Regular = Schemas['RegularView'];

/** `GET`/`PUT /events/{id}/rsvp-rules` and `/event-series/{id}/rsvp-rules`. */
export interface RsvpRules extends RsvpRulesInput {
  /** RFC 3339 or null (a series' own rules make no moments). */
  openToAllAt: string | null;
  closesAt: string | null;
  shortCheckAt: string | null;
  /** Only to the event's organisers; [] to anyone else. */
  regulars: Regular[];
}

/** A past attendee of a series who is not a regular yet, most attended first. */
export type RegularSuggestion = Schemas['Suggestion'];

/** `GET /event-series/{id}/regulars` (organiser). */
export type SeriesRegulars = Schemas['SeriesRegulars'];

/** One person attending, as the check-in screen lists them. */
export type CheckIn = Schemas['CheckIn'];

/** `GET /events/{id}/check-ins` (organiser): everyone attending, in attending order. */
export type CheckIns = Schemas['CheckIns'];

// ── Fair sides and the ice bill (docs/sides-and-bill.md) ──────────────────

/** The two sides of a pickup, by jersey. */
export type Side = Schemas['SideChoice'];

/** A player's role for the split, from the position they answered with. */
export type SideRole = 'GOALIE' | 'DEFENCE' | 'FORWARD';

export interface SidePlayer {
  userId: string;
  displayName: string;
  /** Their RSVP's position (null when the server has none on record). */
  position: HockeyPosition | null;
  role: SideRole;
  /** 1–8 on the universal division scale; null when unknown (the split counts the median). */
  level: number | null;
  /** False marks a hole: on a side, but no longer in. */
  present: boolean;
}

/** Over the present players of one side. */
export type SideTotals = Schemas['Totals'];

/** `GET /events/{id}/sides`, and what every sides write answers. */
export interface SidesDoc {
  eventId: string;
  /** Counts changes of the sides; 0 before the first split. */
  version: number;
  madeAt: string | null;
  seed: number | null;
  dark: SidePlayer[];
  light: SidePlayer[];
  /** Newcomers: in, on no side (everyone, before the first split). */
  unassigned: SidePlayer[];
  totals: { dark: SideTotals; light: SideTotals };
}

export type SidesAction = Schemas['SidesAction'];

/** What a goalie pays: nothing, a half share or a full one. */
export const GOALIE_POLICIES = ['FREE', 'HALF', 'FULL'] as const;
export type GoaliePolicy = Schemas['GoaliePolicyInput'];

/** What the bill tells apart: goalies pay by the policy, skaters a full share. */
export type BillRole = 'GOALIE' | 'SKATER';

export interface BillShare {
  userId: string;
  displayName: string;
  role: BillRole;
  /** 2 a skater; a goalie 0/1/2 by policy; the organiser 0 when they do not pay. */
  weight: number;
  amountCents: number;
  isPaid: boolean;
  /** What was marked paid, at the share of that moment. */
  paidCents: number | null;
  creditCents: number;
  present: boolean;
}

/** `GET /events/{id}/bill`: a player gets only their own share and zero totals. */
export interface EventBill {
  eventId: string;
  costCents: number | null;
  currency: string;
  goaliePolicy: GoaliePolicy;
  organiserPays: boolean;
  /** Where the cost comes from: the event's own, or its week's share of the series' total. */
  source: 'EVENT' | 'SERIES' | null;
  /** Null before "Bill the players": `shares` is then a preview. */
  closedAt: string | null;
  /** The viewer may set the cost, bill the players and mark payments. */
  canCollect: boolean;
  /** The event's creator may collect payments (what the rink's staff grant them). */
  organiserCanCollect: boolean;
  collectedCents: number;
  outstandingCents: number;
  creditCents: number;
  /** What nobody unpaid is left to carry (the cost went up after everyone paid). */
  uncoveredCents: number;
  shares: BillShare[];
}

export type BillInput = Schemas['BillInput'];

export type SeriesBillWeek = Schemas['BillWeek'];

export type SeriesBillPerson = Schemas['Balance'];

/** `GET /event-series/{id}/bill`: a player gets only their own row in `people`. */
export interface SeriesBill {
  seriesId: string;
  totalCents: number | null;
  currency: string;
  goaliePolicy: GoaliePolicy;
  organiserPays: boolean;
  /** The viewer may set the season's total (an organiser of its weeks who may collect). */
  canCollect: boolean;
  collectedCents: number;
  outstandingCents: number;
  creditCents: number;
  weeks: SeriesBillWeek[];
  people: SeriesBillPerson[];
}

/** `PUT /event-series/{id}/bill`: `costCents` is the total over the weeks. */
export type SeriesBillInput = Schemas['BillInput'];

/** One event as `GET /event-series/{id}` lists it. */
export type EventSeriesItem = Schemas['SeriesEvent'];

/** A weekly series: how its events were made, and all of them, soonest first (cancelled ones included). */
export type EventSeries = Schemas['EventSeries'];

export interface Season {
  id: string;
  facilityId: string;
  facilityName: string;
  name: string;
  startDate: string;
  endDate: string;
  isActive: boolean;
}

/** Stop time (the clock stops at every whistle) or running time (docs/game-night.md › Settings). */
export const CLOCK_MODES = ['STOP', 'RUNNING'] as const;
export type ClockMode = Schemas['ClockMode'];

/** How a season's (or one game's) periods run. */
export type ClockSettings = Schemas['ClockSettings'];

// ── Facilities, teams, seasons, rosters (pages and staff) ─────────────────

/** What the viewer is to a facility or team. */
export type StaffRole = Schemas['StaffRole'];

/** A person as lists of managers, players and requests show them. */
export type UserSummary = Schemas['UserSummary'];

/** `GET /facilities/{id}`: the facility and what its page shows. */
export interface FacilityPage extends Facility {
  /** Managers besides the owner, earliest first. */
  managers: UserSummary[];
  /** The latest 20 seasons, latest start first. */
  seasons: SeasonDetail[];
  /** OWNER, MANAGER, or null. */
  viewerRole: StaffRole | null;
}

/** `GET /teams/{id}`: the team and what its page shows. */
export type TeamPage = Schemas['TeamPage'];

export const UNIVERSAL_DIVISIONS = [
  'LEARN_TO_PLAY',
  'BEGINNER',
  'NOVICE',
  'RECREATIONAL',
  'INTERMEDIATE',
  'ADVANCED',
  'COMPETITIVE',
  'ELITE',
] as const;
export type UniversalDivision = Schemas['UniversalDivision'];

/** One level of `GET /divisions/scale`, lowest first. */
export type DivisionScaleLevel = Schemas['ScaleLevel'];

export type DivisionMapping = Schemas['DivisionMapping'];

/** Game counts of one sync (docs/sync.md). */
export type SyncGameCounts = Schemas['GameCounts'];

/** The season's newest sync run, as `Season.lastSync` summarises it (docs/sync.md › API). */
export interface LastSync {
  ok: boolean;
  finishedAt: string;
  games: SyncGameCounts;
  /** Why it failed; null when `ok`. */
  error: { code: string; message: string } | null;
}

/** A season as `GET /seasons/{id}` and the facility's season list send it. */
export interface SeasonDetail extends Season {
  /** Only for the facility's owner and managers; null for everyone else. */
  syncUrl: string | null;
  syncEnabled: boolean;
  /** The last sync that succeeded. */
  lastSyncAt: string | null;
  /** When the scheduler will sync next; null when sync is off. */
  nextSyncAt: string | null;
  /** The newest run, ok or failed; null before the first. */
  lastSync: LastSync | null;
  createdAt: string;
  updatedAt: string;
  viewerCanEdit: boolean;
  /** On single reads and writes only. */
  divisionMappings?: DivisionMapping[];
  /** The season's clock settings (docs/game-night.md › Settings); absent from a server before them. */
  periodMinutes?: number;
  overtimeMinutes?: number;
  clockMode?: ClockMode;
}

export const ROSTER_STATUSES = ['DRAFT', 'ACTIVE', 'ARCHIVED'] as const;
export type RosterStatus = Schemas['RosterStatus'];
export type RosterCommitment = Schemas['RosterCommitment'];
export type RequestStatus = Schemas['RequestStatus'];

/** The division a roster plays in. */
export type DivisionRef = Schemas['DivisionRef'];

/** A roster without its people (team page, season page, top of the roster page). */
export type RosterSummary = Schemas['RosterSummary'];

export interface RosterPlayer {
  userId: string;
  user: UserSummary;
  jerseyNumber: number | null;
  position: HockeyPosition | null;
  commitmentLevel: RosterCommitment;
  captain: boolean;
  alternateCaptain: boolean;
  goals: number;
  assists: number;
  penaltyMinutes: number;
  gamesPlayed: number;
  /** goals + assists. */
  points: number;
  joinedAt: string;
}

/** A join request as the public roster document shows it (no message). */
export type RosterRequestState = Schemas['RequestState'];

/** The `data` of every `roster:ID` push, and the REST roster without `viewer`. */
export interface RosterDocument extends RosterSummary {
  /** The `roster:ID` topic's seq for this state. */
  seq: number;
  players: RosterPlayer[];
  /** Newest first, at most 100. */
  requests: RosterRequestState[];
}

export type RosterViewer = Schemas['RosterViewer'];

/** `GET /rosters/{id}` and the answer of roster writes. */
export interface Roster extends RosterDocument {
  viewer: RosterViewer;
}

/** A join request with its message, for the requester and the deciders. */
export type JoinRequest = Schemas['JoinRequest'];

// ── Games and live scoreboards ────────────────────────────────────────────

export const GAME_STATUSES = ['SCHEDULED', 'LIVE', 'FINAL', 'POSTPONED', 'CANCELLED'] as const;
export type GameStatus = (typeof GAME_STATUSES)[number];
/** The period of a live (or finished) game. */
export type GamePeriod = '1' | '2' | '3' | 'OT' | 'SO';
/** What a game log entry records (UNDO entries and what they reverted are left out of the public log). */
export type GameLogType = 'START' | 'GOAL' | 'PENALTY' | 'SHOT' | 'GOALIE' | 'END_PERIOD' | 'FINAL';

/** A goal's strength, worked out by the server from the penalties served then. */
export type GoalStrength = 'EV' | 'PP' | 'SH';

/** A penalty by the rules (docs/game-night.md › Entries); OTHER is minutes only (a suspension logged as minutes). */
export const PENALTY_KINDS = ['MINOR', 'DOUBLE_MINOR', 'MAJOR', 'MISCONDUCT', 'GAME_MISCONDUCT', 'OTHER'] as const;
export type PenaltyKind = (typeof PENALTY_KINDS)[number];

export interface GameLogEntry {
  /** 1, 2, 3… per game; gaps where entries were undone. */
  seq: number;
  type: GameLogType;
  /** The period it happened in (for END_PERIOD: the period that ended). */
  period: GamePeriod | null;
  rosterId: string | null;
  /**
   * GOAL: the scorer (null: unknown or own goal); PENALTY: the penalised
   * player; GOALIE: the goalie now in net (null: pulled for an extra attacker).
   */
  playerId: string | null;
  /** Names came with entries before game night; now they come from `home` / `away` (lib/games.ts). */
  playerName?: string | null;
  /** The wire leaves it out when empty; lib/game-wire.ts fills it in. */
  assistIds: string[];
  assistNames?: string[];
  minutes: number | null;
  /** Absent from update frames. */
  createdAt?: string;
  /** GOAL, PENALTY, SHOT, GOALIE: the time left in the period when it happened. */
  clockMs?: number | null;
  /** GOAL: EV, PP or SH. */
  strength?: GoalStrength | null;
  /** GOAL: the other side had no goalie in net. */
  emptyNet?: boolean;
  /** GOAL: the seq of the penalty it ended. */
  releases?: number | null;
  /** PENALTY: what was called. */
  penalty?: PenaltyKind | null;
}

/** Whether the clock counts down play or a break. */
export type ClockPhase = 'PLAY' | 'INTERMISSION';

/**
 * The game clock as the server holds it: what was left at server instant
 * `at`, and whether it runs since (docs/game-night.md › The clock).
 */
export interface GameClock {
  phase: ClockPhase;
  running: boolean;
  remainingMs: number;
  /** Server epoch ms. */
  at: number;
  /** The length of this period (in an intermission: of the break). */
  periodMs: number;
  /** Game time at the start of this period. */
  offsetMs: number;
}

/**
 * A penalty still to run, by the entry that called it, in game time. The
 * server sends `[seq, startMs, endMs, short]` (a tuple keeps a 5-on-3
 * goal's frame small; `short` 1: it puts its side a skater short while
 * served; a `startMs` later than now: waiting for a place); the object
 * form is docs/game-night.md's. lib/game-wire.ts reads either.
 */
export type PenaltyTuple = [seq: number, startMs: number, endMs: number, short: 0 | 1];
export type RunningPenalty = PenaltyTuple | { seq: number; startMs: number | null; endMs: number | null; short?: boolean };

/** Per side: the goalie in net (user id), null for an empty net. */
export interface GameGoalies {
  home: string | null;
  away: string | null;
}

/** Shots on goal per side and period: [1st, 2nd, 3rd, OT]. */
export interface GameShots {
  home: number[];
  away: number[];
}

export interface GamePlayer {
  userId: string;
  displayName: string;
  jerseyNumber: number | null;
  position: HockeyPosition | null;
  /** In this game's lineup (every roster player until a lineup is set). */
  dressed: boolean;
}

/** One side of a game: the roster, its players, who dressed. */
export interface GameTeam {
  rosterId: string;
  name: string;
  players: GamePlayer[];
}

/** The public game state: `GET /games/{id}` without its extras, every action reply, every `game:ID` snapshot. */
export interface GameDocument {
  id: string;
  status: GameStatus;
  period: GamePeriod | null;
  homeScore: number;
  awayScore: number;
  homeRosterId: string;
  awayRosterId: string;
  /** The `game:ID` seq of this state. */
  version: number;
  log: GameLogEntry[];
  home: GameTeam;
  away: GameTeam;
  /**
   * A digest of both sides' players and who dressed: an update whose digest
   * differs from the held snapshot's means a lineup or roster changed, and
   * the player lists must come from a fresh snapshot.
   */
  playersDigest?: string;
  // Game night (docs/game-night.md); absent from a server before it and
  // from games that never started.
  clock?: GameClock | null;
  penalties?: RunningPenalty[];
  goalies?: GameGoalies;
  shots?: GameShots;
  /** The clock settings in force (the game's own, else its season's). */
  settings?: ClockSettings;
}

/**
 * The `data` of a `game:ID` update (docs/game-night.md › Snapshot and
 * update): the scoreboard, the clock, shot totals, and the log's changes
 * since version `since` — `entries` added, `undone` seqs taken back —
 * with `penalties` and `goalies` only when they changed. No names, no
 * player lists. `mergeGameUpdate` (lib/merge-game-update.ts) folds it into
 * a held state.
 */
export interface GameUpdate {
  /** Absent when it is `version − 1` (one change, one update). */
  since?: number;
  version: number;
  status: GameStatus;
  period: GamePeriod | null;
  homeScore: number;
  awayScore: number;
  /** What moves always; `phase`, `periodMs`, `offsetMs` only when they changed. */
  clock?: (Pick<GameClock, 'running' | 'remainingMs' | 'at'> & Partial<GameClock>) | null;
  /** Shot totals (docs/game-night.md); the server may leave them out, as SHOT and GOAL entries count. */
  homeShots?: number;
  awayShots?: number;
  playersDigest?: string;
  entries: GameLogEntry[];
  /** Absent when empty. */
  undone?: number[];
  penalties?: RunningPenalty[];
  goalies?: GameGoalies;
}

export interface GameViewer {
  /** Post actions (staff and the game's score keepers). */
  canScore: boolean;
  /** The sides whose lineup the viewer may set: a team's own staff, the
   * rink's staff and the game's score keepers. */
  lineupRosterIds: string[];
  /** Reschedule, postpone, cancel, assign score keepers (staff). */
  canManage: boolean;
}

/** `GET /games/{id}`: the state plus what the schedule knows, and (signed in) the viewer's rights. */
export interface Game extends GameDocument {
  seasonId: string;
  scheduledAt: string;
  viewer?: GameViewer;
}

/** One game of a season or team schedule. */
export interface GameScheduleEntry {
  id: string;
  seasonId: string;
  seasonName: string;
  scheduledAt: string;
  status: GameStatus;
  period: GamePeriod | null;
  homeRosterId: string;
  homeRosterName: string;
  homeTeamId: string;
  awayRosterId: string;
  awayRosterName: string;
  awayTeamId: string;
  homeScore: number;
  awayScore: number;
  version: number;
}

/** One line of `GET /seasons/{id}/standings`, in the server's standings order. */
export interface Standing {
  rosterId: string;
  name: string;
  gamesPlayed: number;
  wins: number;
  losses: number;
  ties: number;
  points: number;
  goalsFor: number;
  goalsAgainst: number;
}

/** The `data` of every `season:ID` push. */
export interface SeasonDocument {
  seasonId: string;
  seq: number;
  standings: Standing[];
  schedule: GameScheduleEntry[];
}

/** One line of `GET /seasons/{id}/leaders`. */
export interface ScoringLeader {
  userId: string;
  displayName: string;
  rosterId: string;
  rosterName: string;
  jerseyNumber: number | null;
  goals: number;
  assists: number;
  points: number;
  penaltyMinutes: number;
  gamesPlayed: number;
}

export type Scorekeeper = Schemas['Scorekeeper'];

/** A player's line for one roster in `GET /users/{id}/stats`. */
export interface RosterStatLine {
  rosterId: string;
  rosterName: string;
  teamId: string;
  teamName: string;
  seasonId: string;
  seasonName: string;
  jerseyNumber: number | null;
  position: HockeyPosition | null;
  goals: number;
  assists: number;
  points: number;
  penaltyMinutes: number;
  gamesPlayed: number;
  // Game night (docs/game-night.md › Statistics); absent from a server before it.
  ppGoals?: number;
  shGoals?: number;
  minorPim?: number;
  majorPim?: number;
  /** Misconducts and game misconducts. */
  misconductPim?: number;
  /** As a goalie: shots and goals against, and time in net. */
  shotsAgainst?: number;
  goalsAgainst?: number;
  goalieMs?: number;
}

/** The numbers of a stat line that add up across rosters. */
export type StatTotals = Pick<RosterStatLine, 'goals' | 'assists' | 'points' | 'penaltyMinutes' | 'gamesPlayed'> &
  Partial<Pick<RosterStatLine, 'ppGoals' | 'shGoals' | 'minorPim' | 'majorPim' | 'misconductPim' | 'shotsAgainst' | 'goalsAgainst' | 'goalieMs'>>;

export interface PlayerStats {
  userId: string;
  displayName: string;
  /** One line per roster, latest season first. */
  rosters: RosterStatLine[];
  totals: StatTotals;
}

// ── Statuses and the sub market (docs/statuses.md) ────────────────────────

export const STATUS_TYPES = ['AVAILABLE_TO_SUB', 'LOOKING_FOR_SUBS', 'LOOKING_FOR_TEAM', 'RECRUITING'] as const;
export type StatusType = Schemas['StatusType'];
/** USER: a person's own status (or an organiser's call for an event); TEAM: a team's. */
export type StatusEntityType = Schemas['EntityType'];

export type StatusTeam = Schemas['TeamSummary'];

/** Places left per role; null = unlimited. */
export type OpenPlaces = Schemas['Open'];

/** An event as statuses, matches and the lobby display show it. */
export type StatusEvent = Schemas['EventSummary'];

export type Status = Schemas['Status'];

export interface MatchEvent extends StatusEvent {
  /** The event's calls for subs that match mine. */
  asks: Status[];
}

/**
 * One of my statuses paired with what it matches: another status
 * (`theirs`), or an event with open places (`theirs` null, `event` set).
 * `id` is `<mine.id>:status:<theirs.id>` or `<mine.id>:event:<eventId>`.
 */
export type Match = Schemas['Match'];

/** The `data` of the `matches` topic's snapshot, and `GET /me/matches`. */
export type MatchesDocument = Schemas['Items_Match'];

/** One `update` of the `matches` topic. */
export type MatchesUpdate = Schemas['MatchesUpdate'];

/** The `data` of every `spots:<facilityId>` frame: tonight's open places at a rink, soonest first. */
export type SpotsDocument = Schemas['Spots'];

/** `POST /events/{id}/take-spot`. */
export type TakeSpotReply = Schemas['TakeSpotReply'];

// ---------------------------------------------------------------- schedules (docs/schedule.md)

/**
 * My standing on a schedule item: an event's RSVP (none yet on my team's
 * event), or a native league game's availability answer (docs/availability.md
 * › My schedule: ATTENDING = in, DECLINED = out, NOT_ANSWERED).
 */
export type ScheduleState = Schemas['ScheduleState'];

/** One event or league game of `GET /me/schedule`, `/users/{id}/schedule`, `/teams/{id}/upcoming`. */
export type ScheduleItem = Schemas['ScheduleItem'];

export type Schedule = Schemas['Schedule'];

/** `GET /me/rosters`: a roster I play on. */
export type MyRoster = Schemas['MyRoster'];

/** `GET /me/calendar-feed`. */
export type CalendarFeed = Schemas['CalendarFeed'];

/** `POST /me/calendar-feed`: the path holds the secret, shown this once. */
export type NewCalendarFeed = Schemas['NewCalendarFeed'];

// ---------------------------------------------------------------- availability (docs/availability.md)

/** A player's answer for one game; null on the wire is no answer yet. */
export type AvailabilityAnswer = Schemas['Answer'];

/**
 * How the board counts a roster's players: skaters (forwards, or no
 * position), defence, goalies, and subs (commitment SUBSTITUTE, whatever
 * they play), each apart.
 */
export const AVAILABILITY_GROUPS = ['skaters', 'defence', 'goalies', 'subs'] as const;
export type AvailabilityGroup = (typeof AVAILABILITY_GROUPS)[number];
/** A player's group as the wire names it (the enum's UPPER_CASE): `counts` is keyed by its lower case. */
export type AvailabilityPlayerGroup = Schemas['PlayerGroup'];

/** `GET`/`PUT /rosters/{id}/availability-rules`; each field null = off. */
export type AvailabilityRules = Schemas['AvailabilityRules'];

export type AvailabilityCount = Schemas['GroupTally'];

export type AvailabilityCounts = Schemas['GroupCounts'];

/** How many are missing of each, against the rules' minimums (0 when met or off). */
export type AvailabilityShort = Schemas['Short'];

export type AvailabilityPlayer = Schemas['PlayerAvailability'];

/**
 * One game of a roster with everyone's answers: a native league game
 * (`kind: 'GAME'`, id the game's) or an imported one (`kind: 'EVENT'`, id
 * the event's, whose answers are the players' RSVPs).
 */
export type GameAvailability = Schemas['GameAvailability'];

/** `GET /rosters/{id}/availability` and the `availability:{rosterId}` topic's snapshot. */
export type AvailabilityBoard = Schemas['Board'];

/**
 * One `update` of the `availability:{rosterId}` topic: one game that
 * changed, or (the rules changed) the whole board but its roster id.
 */
export type AvailabilityUpdate = Schemas['AvailabilityUpdate'];

/** `POST /rosters/{id}/availability/{gameId}/nudge`. */
export type NudgeResult = Schemas['Nudged'];

// ---------------------------------------------------------------- invites (docs/invites.md)

/** What an invite brings its holder into. */
export type InviteKind = 'ROSTER' | 'EVENT';

/** Worked out by the server at read time: revoked, else expired, else used up, else active. */
export const INVITE_STATUSES = ['ACTIVE', 'EXPIRED', 'REVOKED', 'USED_UP'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

/** `POST`/`GET /rosters/{id}/invites` and `/events/{id}/invites` (those who may invite there). */
export interface Invite {
  id: string;
  /** 12 characters; the server reads it forgivingly (case, spaces, dashes). */
  code: string;
  /** The app's path that opens it: `/invite/{code}`. */
  path: string;
  kind: InviteKind;
  rosterId: string | null;
  eventId: string | null;
  /** Where it was mailed (when the server can mail); null for a link to share. */
  email: string | null;
  /** Rosters only: accepting files a join request instead of joining. */
  requireApproval: boolean;
  maxUses: number;
  uses: number;
  status: InviteStatus;
  expiresAt: string;
  revokedAt: string | null;
  createdAt: string;
}

/** `GET /invites/{code}`: public, what the invite page shows before sign-in. */
export interface InvitePreview {
  code: string;
  kind: InviteKind;
  /** A roster: "{roster} ({season})"; an event: its title. */
  title: string;
  /** The roster's team; null for an event. */
  teamName: string | null;
  /** The event's start; null for a roster. */
  startsAt: string | null;
  /** The display name of whoever made it; null when that account is gone. */
  invitedBy: string | null;
  requireApproval: boolean;
  status: InviteStatus;
  expiresAt: string;
}

/** What using an invite did: joined (or asked to join) the roster, answered the event, or nothing new. */
export type AcceptResult = 'JOINED' | 'REQUESTED' | 'ALREADY' | 'ATTENDING' | 'WAITLISTED';

/** `POST /invites/{code}/accept`. */
export type Accepted = Schemas['Accepted'];

/** The body of `POST …/invites`; every field optional (a link for 14 days, 25 uses, by default). */
export type NewInviteInput = Schemas['NewInviteInput'];

// ---------------------------------------------------------------- team chat (docs/chat.md)

/** What a conversation belongs to: a roster (`roster-{rosterId}`) or an event (`event-{eventId}`). */
export type ConversationKind = 'ROSTER' | 'EVENT';

/**
 * One message. `seq` is its place in the conversation (1, 2, 3… with no
 * gaps, the same for everyone); a deleted message keeps its place and
 * loses its body (`body` null, `deletedAt` set). A message only moves
 * forward: posted, edited (a later `editedAt` each time), deleted.
 */
export interface ChatMessage {
  id: string;
  conversationId: string;
  seq: number;
  author: UserSummary;
  /** Plain text, 1–2,000 characters, line breaks kept; null once deleted. */
  body: string | null;
  createdAt: string;
  editedAt: string | null;
  deletedAt: string | null;
}

/** A conversation as `GET /chats` lists it (and `PUT /chats/{id}/mute` answers). */
export interface Conversation {
  /** `roster-{rosterId}` or `event-{eventId}`. */
  id: string;
  kind: ConversationKind;
  /** The roster's or the event's id. */
  subjectId: string;
  title: string;
  /** The event's start; null for a roster. */
  startsAt: string | null;
  lastMessage: ChatMessage | null;
  /** Others' messages after my read mark, deleted ones not counted. */
  unread: number;
  /** No CHAT_MESSAGE notifications from it. */
  muted: boolean;
  /** May delete anyone's message (the team's owner and managers and the captain; an event's organisers). */
  canModerate: boolean;
}

/** `GET /chats/{id}`: the conversation, its latest 50 messages (oldest first), my read mark and its version. */
export interface ConversationPage extends Conversation {
  messages: ChatMessage[];
  /** The seq I have read up to (0 before I read anything). */
  readSeq: number;
  /** Moved on by every post, edit and delete: the `chat:{id}` topic's seq. */
  version: number;
}

/** `GET /chats/{id}/messages?before=&limit=`: the page just before `before`, oldest first. */
export interface MessagesPage {
  items: ChatMessage[];
  /** What to pass as `before` for the page before this one; null when this page starts at the first message. */
  nextBefore: number | null;
}

/** `GET /chats`: my conversations (newest message first, then by start or name) and my unread total. */
export interface ChatsList {
  items: Conversation[];
  unread: number;
}

/** `PUT /chats/{id}/read`: my mark as it now stands (it only moves forward) and what is left unread there. */
export type ChatReadMark = Schemas['ReadMark'];

/** The `chat:{conversationId}` topic's snapshot; its seq is the conversation's `version`. */
export interface ChatSnapshot {
  conversationId: string;
  version: number;
  /** The latest 50, oldest first. */
  messages: ChatMessage[];
}

/** One `update` of `chat:{conversationId}`: a new message, an edit or a delete, as the message now is. */
export interface ChatUpdate {
  message: ChatMessage;
}

/** The `chats` own topic's snapshot (`chats:{userId}` on the bus): my unread total (muted conversations left out) and the conversations with unread messages. */
export interface ChatsSnapshot {
  unread: number;
  conversations: { id: string; unread: number; muted?: boolean }[];
}

/**
 * One `update` of the `chats` topic, after a change to one of my
 * conversations' counts: that conversation's count now. Counts after two
 * quick messages may arrive out of order: the highest `version` wins.
 */
export interface ChatsUpdate {
  conversationId: string;
  /** The conversation's version when the count was read. */
  version: number;
  /** My unread in that conversation now. */
  unread: number;
  lastMessage: ChatMessage | null;
}
