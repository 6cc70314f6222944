// The pure side of the sides card: names of sides and roles, where a player
// is, and what a tap means in the organiser's two-tap swap.

import { UNIVERSAL_DIVISIONS, type Side, type SidePlayer, type SideRole, type SidesDoc } from '../../../lib/api-types';
import { DIVISION_LABELS } from '../../../lib/format';

export const SIDE_NAMES: Record<Side, string> = { DARK: 'Dark', LIGHT: 'Light' };

export const otherSide = (side: Side): Side => (side === 'DARK' ? 'LIGHT' : 'DARK');

export const ROLE_SHORT: Record<SideRole, string> = { GOALIE: 'G', DEFENCE: 'D', FORWARD: 'F' };
export const ROLE_LABELS: Record<SideRole, string> = { GOALIE: 'Goalie', DEFENCE: 'Defence', FORWARD: 'Forward' };

/** "Intermediate" for 5; null for an unknown level. */
export function levelName(level: number | null): string | null {
  if (level === null) return null;
  const division = UNIVERSAL_DIVISIONS[level - 1];
  return division ? DIVISION_LABELS[division] : null;
}

/** Where a player is: a side, or null for a newcomer (in, on no side) or someone not listed. */
export function sideOf(doc: SidesDoc, userId: string): Side | null {
  if (doc.dark.some((p) => p.userId === userId)) return 'DARK';
  if (doc.light.some((p) => p.userId === userId)) return 'LIGHT';
  return null;
}

export function findPlayer(doc: SidesDoc, userId: string): SidePlayer | null {
  return [...doc.dark, ...doc.light, ...doc.unassigned].find((p) => p.userId === userId) ?? null;
}

/** The sides have been made (a split exists, maybe with holes and newcomers since). */
export const sidesMade = (doc: SidesDoc) => doc.madeAt !== null || doc.dark.length + doc.light.length > 0;

/** What the organiser's tap on `tapped` does, given who is selected. */
export type TapOutcome = { kind: 'select'; userId: string } | { kind: 'deselect' } | { kind: 'swap'; userIds: [string, string] };

/**
 * Two taps swap: a player, then a player on the other side. The same player
 * again lets go; another on the same side (or a newcomer, who cannot trade
 * places) becomes the one selected instead.
 */
export function tapOutcome(doc: SidesDoc, selected: string | null, tapped: string): TapOutcome {
  if (selected === tapped) return { kind: 'deselect' };
  if (selected === null) return { kind: 'select', userId: tapped };
  const from = sideOf(doc, selected);
  const to = sideOf(doc, tapped);
  if (from !== null && to !== null && from !== to) return { kind: 'swap', userIds: [selected, tapped] };
  return { kind: 'select', userId: tapped };
}
