// A game's own clock settings against its season's (docs/game-night.md ›
// Settings): what the edit form shows — a field the season decides stays
// empty — and what it sends: a new value, null to go back to the
// season's, nothing when unchanged.

import type { ClockMode, ClockSettings } from '../../../lib/api-types';

export interface OwnSettings {
  periodMinutes: number | null;
  overtimeMinutes: number | null;
  clockMode: ClockMode | null;
}

/** What the game sets itself, as far as it can be told from the settings in force and the season's. */
export function ownSettings(effective: ClockSettings | undefined, season: ClockSettings | undefined): OwnSettings {
  const differs = <K extends keyof ClockSettings>(k: K) => (effective && season && effective[k] !== season[k] ? effective[k] : null);
  return { periodMinutes: differs('periodMinutes'), overtimeMinutes: differs('overtimeMinutes'), clockMode: differs('clockMode') };
}

/** The PATCH fields for the settings the form now says, against what the game had. */
export function settingsPatch(before: OwnSettings, after: OwnSettings): Partial<OwnSettings> {
  const out: Partial<OwnSettings> = {};
  if (after.periodMinutes !== before.periodMinutes) out.periodMinutes = after.periodMinutes;
  if (after.overtimeMinutes !== before.overtimeMinutes) out.overtimeMinutes = after.overtimeMinutes;
  if (after.clockMode !== before.clockMode) out.clockMode = after.clockMode;
  return out;
}
