import { describe, expect, it } from 'vitest';
import type { BillShare, EventBill } from '../../../lib/api-types';
import { makeViewer } from '../../../testing/fixtures';
import { myMoney, previewLine } from './bill';

const share = (userId: string, role: BillShare['role'], weight: number, amountCents: number): BillShare => ({
  userId,
  displayName: userId,
  role,
  weight,
  amountCents,
  isPaid: false,
  paidCents: null,
  creditCents: 0,
  present: true,
});

function bill(over: Partial<EventBill> = {}): EventBill {
  return {
    eventId: 'e-1',
    costCents: 3500,
    currency: 'USD',
    goaliePolicy: 'FREE',
    organiserPays: true,
    source: 'EVENT',
    closedAt: null,
    canCollect: true,
    organiserCanCollect: true,
    collectedCents: 0,
    outstandingCents: 0,
    creditCents: 0,
    uncoveredCents: 0,
    shares: [share('a', 'SKATER', 2, 1167), share('b', 'SKATER', 2, 1167), share('c', 'SKATER', 2, 1166), share('g', 'GOALIE', 0, 0)],
    ...over,
  };
}

describe('previewLine', () => {
  it('names the typical skater share and what goalies pay', () => {
    expect(previewLine(bill(), 'en-US')).toBe('Each skater ≈ $11.67, goalies free');
    const half = bill({ goaliePolicy: 'HALF', shares: [share('a', 'SKATER', 2, 1400), share('b', 'SKATER', 2, 1400), share('g', 'GOALIE', 1, 700)] });
    expect(previewLine(half, 'en-US')).toBe('Each skater ≈ $14.00, goalies ≈ $7.00');
  });

  it('says when there is no cost, or nobody to share it', () => {
    expect(previewLine(bill({ costCents: null }), 'en-US')).toBeNull();
    expect(previewLine(bill({ shares: [] }), 'en-US')).toBe('Nobody is in to share it yet.');
  });
});

describe('myMoney', () => {
  it('reads owes, paid and credit from the viewer', () => {
    expect(myMoney(makeViewer())).toBeNull();
    expect(myMoney(makeViewer({ currency: 'USD', owesCents: 1750 }))).toEqual({ kind: 'owes', cents: 1750, creditCents: 0, currency: 'USD' });
    expect(myMoney(makeViewer({ currency: 'USD', owesCents: null, paidCents: 1750 }))).toEqual({ kind: 'paid', cents: 1750, creditCents: 0, currency: 'USD' });
    expect(myMoney(makeViewer({ currency: 'CAD', creditCents: 500 }))).toEqual({ kind: 'credit', creditCents: 500, currency: 'CAD' });
    expect(myMoney(makeViewer({ currency: 'USD', owesCents: 0, creditCents: 0 }))).toBeNull();
    // Marked paid at an event without a bill: the RSVP card's "Paid" says it, not a bill line.
    expect(myMoney(makeViewer({ currency: 'USD', isPaid: true, paidCents: 0 }))).toBeNull();
  });
});
