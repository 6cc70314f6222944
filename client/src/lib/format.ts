// Display helpers shared by every screen.

import type { HockeyPosition, ProfileType, SkillLevel, UniversalDivision } from './api-types';

interface Named {
  username: string | null;
  firstName: string | null;
  lastName: string | null;
}

/** "Alice Ames", else "@alice", else "Rinkside member". */
export function displayName(u: Named): string {
  const full = [u.firstName, u.lastName].filter((s) => s && s.trim()).join(' ').trim();
  if (full) return full;
  if (u.username) return `@${u.username}`;
  return 'Rinkside member';
}

/** The handle line under a name, or null when the name already is the handle. */
export function handle(u: Named): string | null {
  const full = [u.firstName, u.lastName].filter((s) => s && s.trim()).join(' ').trim();
  return full && u.username ? `@${u.username}` : null;
}

export const PROFILE_TYPE_LABELS: Record<ProfileType, string> = {
  PLAYER: 'Player',
  COACH: 'Coach',
  REFEREE: 'Referee',
  SCORE_KEEPER: 'Score keeper',
  FACILITY_MANAGER: 'Facility manager',
  FAN: 'Fan',
};

export const PROFILE_TYPE_BLURBS: Record<ProfileType, string> = {
  PLAYER: 'Join rosters, grab a spot at pickup, track your stats.',
  COACH: 'Run your bench, manage lines and practices.',
  REFEREE: 'Find games that need officials.',
  SCORE_KEEPER: 'Keep the live score for games at your rink.',
  FACILITY_MANAGER: 'Run seasons, schedules and ice time.',
  FAN: 'Follow teams and watch scores live.',
};

export const POSITION_LABELS: Record<HockeyPosition, string> = {
  CENTER: 'Center',
  LEFT_WING: 'Left wing',
  RIGHT_WING: 'Right wing',
  LEFT_DEFENSE: 'Left defense',
  RIGHT_DEFENSE: 'Right defense',
  GOALIE: 'Goalie',
};

export const POSITION_SHORT: Record<HockeyPosition, string> = {
  CENTER: 'C',
  LEFT_WING: 'LW',
  RIGHT_WING: 'RW',
  LEFT_DEFENSE: 'LD',
  RIGHT_DEFENSE: 'RD',
  GOALIE: 'G',
};

export const SKILL_LABELS: Record<SkillLevel, string> = {
  BEGINNER: 'Beginner',
  INTERMEDIATE: 'Intermediate',
  ADVANCED: 'Advanced',
  PROFESSIONAL: 'Professional',
};

export function memberSince(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return d.toLocaleDateString(undefined, { month: 'long', year: 'numeric' });
}

export function formatCount(n: number): string {
  if (n < 1000) return String(n);
  if (n < 10_000) return `${(n / 1000).toFixed(1).replace(/\.0$/, '')}k`;
  return `${Math.round(n / 1000)}k`;
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return n === 1 ? one : many;
}

/** The universal scale's names (docs/divisions.md), for screens that run without `GET /divisions/scale`. */
export const DIVISION_LABELS: Record<UniversalDivision, string> = {
  LEARN_TO_PLAY: 'Learn to Play',
  BEGINNER: 'Beginner',
  NOVICE: 'Novice',
  RECREATIONAL: 'Recreational',
  INTERMEDIATE: 'Intermediate',
  ADVANCED: 'Advanced',
  COMPETITIVE: 'Competitive',
  ELITE: 'Elite',
};
