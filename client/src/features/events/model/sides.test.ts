import { describe, expect, it } from 'vitest';
import type { SidePlayer, SidesDoc } from '../../../lib/api-types';
import { levelName, sideOf, sidesMade, tapOutcome } from './sides';

const p = (userId: string): SidePlayer => ({ userId, displayName: userId, position: 'CENTER', role: 'FORWARD', level: 4, present: true });
const zero = { goalies: 0, defence: 0, forwards: 0, levelSum: 0 };
const doc: SidesDoc = {
  eventId: 'e-1',
  version: 1,
  madeAt: '2026-11-01T00:00:00Z',
  seed: 1,
  dark: [p('d1'), p('d2')],
  light: [p('l1')],
  unassigned: [p('n1')],
  totals: { dark: zero, light: zero },
};

describe('tapOutcome', () => {
  it('selects, lets go on a second tap, and swaps across the sides', () => {
    expect(tapOutcome(doc, null, 'd1')).toEqual({ kind: 'select', userId: 'd1' });
    expect(tapOutcome(doc, 'd1', 'd1')).toEqual({ kind: 'deselect' });
    expect(tapOutcome(doc, 'd1', 'l1')).toEqual({ kind: 'swap', userIds: ['d1', 'l1'] });
    expect(tapOutcome(doc, 'l1', 'd2')).toEqual({ kind: 'swap', userIds: ['l1', 'd2'] });
  });

  it('moves the selection on the same side, and never swaps with a newcomer', () => {
    expect(tapOutcome(doc, 'd1', 'd2')).toEqual({ kind: 'select', userId: 'd2' });
    expect(tapOutcome(doc, 'n1', 'l1')).toEqual({ kind: 'select', userId: 'l1' });
    expect(tapOutcome(doc, 'l1', 'n1')).toEqual({ kind: 'select', userId: 'n1' });
  });
});

describe('sides helpers', () => {
  it('finds a side, tells a made split, and names a level', () => {
    expect(sideOf(doc, 'd2')).toBe('DARK');
    expect(sideOf(doc, 'l1')).toBe('LIGHT');
    expect(sideOf(doc, 'n1')).toBeNull();
    expect(sidesMade(doc)).toBe(true);
    expect(sidesMade({ ...doc, madeAt: null, dark: [], light: [] })).toBe(false);
    expect(levelName(1)).toBe('Learn to Play');
    expect(levelName(8)).toBe('Elite');
    expect(levelName(null)).toBeNull();
  });
});
