// The words of the ice bill: the preview line an organiser reads before
// billing, and what a player owes, paid or has in credit.

import type { BillRole, EventBill, EventViewer, GoaliePolicy } from '../../../lib/api-types';
import { formatMoney } from '../../../lib/money';

export const BILL_ROLE_LABELS: Record<BillRole, string> = { GOALIE: 'Goalie', SKATER: 'Skater' };

export const GOALIE_POLICY_LABELS: Record<GoaliePolicy, string> = { FREE: 'Free', HALF: 'Half', FULL: 'Full' };

/** The largest of some amounts, or null for none. */
const largest = (xs: number[]) => (xs.length ? Math.max(...xs) : null);

/**
 * "Each skater ≈ $17.50, goalies free": the typical share by role, from the
 * (preview) shares. "≈" because whole cents leave some shares a cent apart.
 */
export function previewLine(bill: EventBill, locale?: string): string | null {
  if (bill.costCents === null) return null;
  const fmt = (c: number) => formatMoney(c, bill.currency, locale);
  const present = bill.shares.filter((s) => s.present);
  const skater = largest(present.filter((s) => s.role !== 'GOALIE' && s.weight === 2).map((s) => s.amountCents));
  const goalie = largest(present.filter((s) => s.role === 'GOALIE' && s.weight > 0).map((s) => s.amountCents));
  if (skater === null && goalie === null) return 'Nobody is in to share it yet.';
  const parts: string[] = [];
  if (skater !== null) parts.push(`Each skater ≈ ${fmt(skater)}`);
  if (bill.goaliePolicy === 'FREE') parts.push(skater === null ? 'Goalies free' : 'goalies free');
  else if (goalie !== null) parts.push(`${skater === null ? 'Each goalie' : 'goalies'} ≈ ${fmt(goalie)}`);
  return parts.join(', ');
}

export type MyMoney =
  | { kind: 'owes'; cents: number; creditCents: number; currency: string }
  | { kind: 'paid'; cents: number; creditCents: number; currency: string }
  | { kind: 'credit'; creditCents: number; currency: string };

/** What a player's own line says; null when there is no bill for them. */
export function myMoney(viewer: EventViewer | undefined): MyMoney | null {
  if (!viewer?.currency) return null;
  const currency = viewer.currency;
  const credit = viewer.creditCents ?? 0;
  if (viewer.owesCents !== null && viewer.owesCents > 0) return { kind: 'owes', cents: viewer.owesCents, creditCents: credit, currency };
  // Paid nothing (a free share, or marked paid at an event without a bill): no bill to speak of.
  if (viewer.paidCents !== null && viewer.paidCents > 0) return { kind: 'paid', cents: viewer.paidCents, creditCents: credit, currency };
  if (credit > 0) return { kind: 'credit', creditCents: credit, currency };
  return null;
}
