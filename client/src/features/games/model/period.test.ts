import { describe, expect, it } from 'vitest';
import type { GamePeriod } from '../../../lib/api-types';
import { periodEnded, periodStep } from './period';
import { logEntry, makeGame } from './test-fixtures';

function at(period: GamePeriod, homeScore: number, awayScore: number, ended: GamePeriod[] = []) {
  return makeGame({
    status: 'LIVE',
    period,
    homeScore,
    awayScore,
    log: [logEntry(1, { type: 'START', period: '1' }), ...ended.map((p, i) => logEntry(10 + i, { type: 'END_PERIOD', period: p, rosterId: null, playerId: null }))],
  });
}

describe('periodStep', () => {
  it('offers END 3RD with a lead, which ends regulation rather than starting overtime', () => {
    expect(periodStep(at('3', 1, 0, ['1', '2']))).toEqual({ canEnd: true, label: 'End 3rd', hint: 'End of regulation', finalNext: false });
  });

  it('offers FINAL, not END OT, once the 3rd has ended with a lead', () => {
    const step = periodStep(at('3', 1, 0, ['1', '2', '3']));
    expect(step.canEnd).toBe(false);
    expect(step.finalNext).toBe(true);
    expect(step.label).not.toContain('OT');
    expect(step.hint).toBe('Not tied: no overtime');
  });

  it('sends a tied game to overtime and a tied overtime to the shootout', () => {
    expect(periodStep(at('3', 2, 2, ['1', '2']))).toMatchObject({ canEnd: true, hint: 'Tied: overtime next' });
    expect(periodStep(at('OT', 2, 2, ['1', '2', '3']))).toMatchObject({ canEnd: true, label: 'End OT', hint: 'Tied: shootout next' });
  });

  it('ends overtime after an overtime goal without a shootout', () => {
    expect(periodStep(at('OT', 3, 2, ['1', '2', '3']))).toMatchObject({ canEnd: true, hint: 'End of overtime' });
    expect(periodStep(at('OT', 3, 2, ['1', '2', '3', 'OT']))).toMatchObject({ canEnd: false, finalNext: true, hint: 'Not tied: no shootout' });
  });

  it('lets a late goal that ties an ended 3rd go on to overtime', () => {
    expect(periodStep(at('3', 1, 1, ['1', '2', '3']))).toMatchObject({ canEnd: true, hint: 'Tied: overtime next' });
  });

  it('stops at the shootout', () => {
    expect(periodStep(at('SO', 2, 2, ['1', '2', '3', 'OT']))).toMatchObject({ canEnd: false, hint: 'Shootout is the last' });
  });

  it('leaves the 1st and 2nd alone, lead or not', () => {
    expect(periodStep(at('1', 3, 0))).toEqual({ canEnd: true, label: 'End 1st', hint: 'End period', finalNext: false });
    expect(periodStep(at('2', 0, 0, ['1']))).toMatchObject({ canEnd: true, label: 'End 2nd' });
  });
});

describe('periodEnded', () => {
  it('is true only for an END_PERIOD of the current period', () => {
    expect(periodEnded(at('2', 0, 0, ['1']))).toBe(false);
    expect(periodEnded(at('3', 1, 0, ['1', '2', '3']))).toBe(true);
  });
});
