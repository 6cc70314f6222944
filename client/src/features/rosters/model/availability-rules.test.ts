import { describe, expect, it } from 'vitest';
import { availabilityRulesFromDraft, availabilityRulesPreview, draftFromAvailabilityRules, durationWords } from './availability-rules';

const NEXT = { startsAt: '2026-11-27T02:30:00Z', timeZone: 'America/Toronto' };

describe('the rules form', () => {
  it('shows minutes as hours and blanks for off', () => {
    expect(draftFromAvailabilityRules({ lockMinutes: 90, minSkaters: 10, minGoalies: null })).toEqual({ lockHours: '1.5', minSkaters: '10', minGoalies: '' });
  });

  it('sends hours as whole minutes, blanks as null', () => {
    expect(availabilityRulesFromDraft({ lockHours: '2', minSkaters: '10', minGoalies: '1' })).toEqual({ rules: { lockMinutes: 120, minSkaters: 10, minGoalies: 1 } });
    expect(availabilityRulesFromDraft({ lockHours: ' ', minSkaters: '', minGoalies: '' })).toEqual({ rules: { lockMinutes: null, minSkaters: null, minGoalies: null } });
    expect(availabilityRulesFromDraft({ lockHours: '0,5', minSkaters: '0', minGoalies: '0' })).toEqual({ rules: { lockMinutes: 30, minSkaters: 0, minGoalies: 0 } });
  });

  it("names each field out of the server's bounds, as the server names it", () => {
    const out = availabilityRulesFromDraft({ lockHours: '169', minSkaters: '51', minGoalies: 'two' });
    expect(out).toEqual({
      errors: {
        lockMinutes: 'At most 168 hours (7 days).',
        minSkaters: 'At most 50.',
        minGoalies: 'A whole number; blank for no minimum.',
      },
    });
    expect(availabilityRulesFromDraft({ lockHours: '168', minSkaters: '50', minGoalies: '10' })).toEqual({ rules: { lockMinutes: 10_080, minSkaters: 50, minGoalies: 10 } });
    expect(availabilityRulesFromDraft({ lockHours: '', minSkaters: '', minGoalies: '11' })).toEqual({ errors: { minGoalies: 'At most 10.' } });
  });
});

describe('the rules in plain words', () => {
  it('says when answers lock, for the next game on the rink clock', () => {
    const [lock] = availabilityRulesPreview({ lockMinutes: 120, minSkaters: null, minGoalies: null }, NEXT, 'America/Toronto');
    expect(lock).toBe('Answers lock 2 hours before puck drop (Thu 7:30 PM for the next game). After that a player can still say they’re out (marked late); you can still set anyone’s answer.');
    expect(availabilityRulesPreview({ lockMinutes: 0, minSkaters: null, minGoalies: null }, null)[0]).toMatch(/^Answers lock at puck drop\. /);
    expect(availabilityRulesPreview({ lockMinutes: null, minSkaters: null, minGoalies: null }, NEXT)[0]).toBe('No lock: players can say they’re in until puck drop.');
  });

  it('says what short means', () => {
    const lines = availabilityRulesPreview({ lockMinutes: null, minSkaters: 10, minGoalies: 1 }, NEXT);
    expect(lines[1]).toBe('You need 10 skaters and 1 goalie in (defence and subs who skate count as skaters): below that the board says what’s short and offers a call for subs.');
    expect(availabilityRulesPreview({ lockMinutes: null, minSkaters: null, minGoalies: 2 }, NEXT)[1]).toMatch(/^You need 2 goalies in/);
    expect(availabilityRulesPreview({ lockMinutes: null, minSkaters: 0, minGoalies: null }, NEXT)[1]).toBe('No minimums: the board never says you’re short.');
  });

  it('words durations as a person would', () => {
    expect([durationWords(60), durationWords(90), durationWords(120), durationWords(45), durationWords(1440), durationWords(4320)]).toEqual(['1 hour', '1.5 hours', '2 hours', '45 minutes', '1 day', '3 days']);
  });
});
