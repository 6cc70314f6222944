// A roster's availability rules (docs/availability.md › Rules per roster)
// as the managers' form has them: the lock in hours before puck drop, the
// minimums as whole numbers, blank for off; the wire's minutes and nulls;
// and the rules in plain words for the form's preview. Pure.

import type { AvailabilityRules, GameAvailability } from '../../../lib/api-types';
import { deviceZone } from '../../../lib/time-zone';
import { shortMoment } from './availability';

/** The server's bounds (a value beyond is a 422 naming the field). */
export const MAX_LOCK_MINUTES = 10_080;
export const MAX_MIN_SKATERS = 50;
export const MAX_MIN_GOALIES = 10;

export const NO_AVAILABILITY_RULES: AvailabilityRules = { lockMinutes: null, minSkaters: null, minGoalies: null };

export interface AvailabilityRulesDraft {
  /** Hours before puck drop ("2", "1.5"), "" for no lock. */
  lockHours: string;
  minSkaters: string;
  minGoalies: string;
}

/** Field → message, keyed as the server names the fields (so a 422 lands in the same place). */
export type AvailabilityRulesErrors = Partial<Record<keyof AvailabilityRules, string>>;

/** Minutes as the form's hours ("24", "1.5", "" when off). */
export function hoursInput(minutes: number | null): string {
  if (minutes === null) return '';
  return String(Math.round((minutes / 60) * 100) / 100);
}

export function draftFromAvailabilityRules(rules: AvailabilityRules): AvailabilityRulesDraft {
  return {
    lockHours: hoursInput(rules.lockMinutes),
    minSkaters: rules.minSkaters === null ? '' : String(rules.minSkaters),
    minGoalies: rules.minGoalies === null ? '' : String(rules.minGoalies),
  };
}

type Parsed = { value: number | null } | { error: string };

function parseLockHours(raw: string): Parsed {
  const t = raw.trim().replace(',', '.');
  if (t === '') return { value: null };
  if (!/^\d+(\.\d+)?$/.test(t)) return { error: 'A number of hours, like 2 or 1.5; blank for no lock.' };
  const minutes = Math.round(Number(t) * 60);
  if (minutes > MAX_LOCK_MINUTES) return { error: `At most ${MAX_LOCK_MINUTES / 60} hours (7 days).` };
  return { value: minutes };
}

function parseMinimum(raw: string, max: number): Parsed {
  const t = raw.trim();
  if (t === '') return { value: null };
  if (!/^\d+$/.test(t)) return { error: 'A whole number; blank for no minimum.' };
  const n = Number(t);
  if (n > max) return { error: `At most ${max}.` };
  return { value: n };
}

/** The draft as the wire's rules, or the errors to show beside each field. */
export function availabilityRulesFromDraft(d: AvailabilityRulesDraft): { rules: AvailabilityRules } | { errors: AvailabilityRulesErrors } {
  const errors: AvailabilityRulesErrors = {};
  const take = (key: keyof AvailabilityRules, p: Parsed): number | null => {
    if ('error' in p) {
      errors[key] = p.error;
      return null;
    }
    return p.value;
  };
  const rules: AvailabilityRules = {
    lockMinutes: take('lockMinutes', parseLockHours(d.lockHours)),
    minSkaters: take('minSkaters', parseMinimum(d.minSkaters, MAX_MIN_SKATERS)),
    minGoalies: take('minGoalies', parseMinimum(d.minGoalies, MAX_MIN_GOALIES)),
  };
  return Object.keys(errors).length > 0 ? { errors } : { rules };
}

export function sameAvailabilityRules(a: AvailabilityRules, b: AvailabilityRules): boolean {
  return a.lockMinutes === b.lockMinutes && a.minSkaters === b.minSkaters && a.minGoalies === b.minGoalies;
}

/** "2 hours", "90 minutes", "1 day", "1.5 hours". */
export function durationWords(minutes: number): string {
  if (minutes > 0 && minutes % 1440 === 0) return minutes === 1440 ? '1 day' : `${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? '1 hour' : `${minutes / 60} hours`;
  if (minutes < 60) return minutes === 1 ? '1 minute' : `${minutes} minutes`;
  return `${Math.round((minutes / 60) * 100) / 100} hours`;
}

const count = (n: number, one: string, many: string) => (n === 1 ? `1 ${one}` : `${n} ${many}`);

/**
 * The rules in plain words, for the form's preview: when answers lock (and
 * when that is for the next game), and what "short" means.
 */
export function availabilityRulesPreview(rules: AvailabilityRules, nextGame: Pick<GameAvailability, 'startsAt' | 'timeZone'> | null, device: string = deviceZone()): string[] {
  const lines: string[] = [];
  if (rules.lockMinutes === null) {
    lines.push('No lock: players can say they’re in until puck drop.');
  } else {
    const when = rules.lockMinutes === 0 ? 'at puck drop' : `${durationWords(rules.lockMinutes)} before puck drop`;
    const next = nextGame ? ` (${shortMoment(new Date(Date.parse(nextGame.startsAt) - rules.lockMinutes * 60_000).toISOString(), nextGame.timeZone, device)} for the next game)` : '';
    lines.push(`Answers lock ${when}${next}. After that a player can still say they’re out (marked late); you can still set anyone’s answer.`);
  }
  const needs = [
    rules.minSkaters !== null && rules.minSkaters > 0 ? count(rules.minSkaters, 'skater', 'skaters') : null,
    rules.minGoalies !== null && rules.minGoalies > 0 ? count(rules.minGoalies, 'goalie', 'goalies') : null,
  ].filter(Boolean);
  if (needs.length === 0) {
    lines.push('No minimums: the board never says you’re short.');
  } else {
    lines.push(`You need ${needs.join(' and ')} in (defence and subs who skate count as skaters): below that the board says what’s short and offers a call for subs.`);
  }
  return lines;
}
