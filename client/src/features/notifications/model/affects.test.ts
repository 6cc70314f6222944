import { describe, expect, it } from 'vitest';
import { changesMySchedule } from './affects';

describe('changesMySchedule', () => {
  it('is true for everything that happens to my events and rosters, not for a reminder, a sub match, my side for a pickup or a nudge to answer', () => {
    for (const type of ['WAITLIST_PROMOTED', 'REMOVED_FROM_EVENT', 'EVENT_CANCELLED', 'EVENT_MOVED', 'ADDED_TO_ROSTER', 'JOIN_REQUEST_APPROVED', 'GAME_FINAL'] as const) {
      expect(changesMySchedule(type)).toBe(true);
    }
    expect(changesMySchedule('EVENT_REMINDER')).toBe(false);
    expect(changesMySchedule('SUB_MATCH')).toBe(false);
    expect(changesMySchedule('SIDES_SET')).toBe(false);
    expect(changesMySchedule('SHORT_HANDED')).toBe(false);
    // A nudge or reminder asks for an answer; giving it reloads the schedule by itself.
    expect(changesMySchedule('AVAILABILITY_NUDGE')).toBe(false);
    expect(changesMySchedule('AVAILABILITY_REMINDER')).toBe(false);
  });
});
