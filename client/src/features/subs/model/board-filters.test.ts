import { describe, expect, it } from 'vitest';
import { activeBoardFilters, readBoardParams, toBoardFilters, writeBoardParams } from './board-filters';

describe('board filters', () => {
  it('round-trips through the address bar and ignores values it does not know', () => {
    const sp = new URLSearchParams('type=AVAILABLE_TO_SUB&position=GOALIE&facility=f-1&division=ADVANCED&when=today');
    const params = readBoardParams(sp);
    expect(params).toEqual({ type: 'AVAILABLE_TO_SUB', position: 'GOALIE', facilityId: 'f-1', division: 'ADVANCED', when: 'today' });
    expect(writeBoardParams(params).toString()).toBe(sp.toString());
    expect(readBoardParams(new URLSearchParams('type=NAP&position=ROVER&division=GOD&when=ever'))).toEqual({ type: '', position: '', facilityId: '', division: '', when: 'any' });
    expect(activeBoardFilters(params)).toBe(4);
  });

  it('turns the window into whole local days', () => {
    const today = new Date(2030, 2, 10, 15, 30);
    const base = readBoardParams(new URLSearchParams());
    expect(toBoardFilters(base, today)).toEqual({});
    expect(toBoardFilters({ ...base, when: 'today' }, today)).toEqual({
      from: new Date(2030, 2, 10).toISOString(),
      to: new Date(2030, 2, 10, 23, 59, 59).toISOString(),
    });
    expect(toBoardFilters({ ...base, when: 'week', position: 'GOALIE' }, today)).toEqual({
      position: 'GOALIE',
      from: new Date(2030, 2, 10).toISOString(),
      to: new Date(2030, 2, 16, 23, 59, 59).toISOString(),
    });
  });
});
