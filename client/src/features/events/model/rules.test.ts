import { describe, expect, it } from 'vitest';
import type { EventRsvpRules } from '../../../lib/api-types';
import {
  atMoment,
  checkMinutesFromClock,
  clockFromCheckMinutes,
  draftFromRules,
  hoursInput,
  isLocked,
  joinLocked,
  momentText,
  NO_RULES,
  parseHours,
  parseMinimum,
  rulesFromDraft,
  rulesNotices,
  rulesPreview,
  type RulesNoticeInputs,
} from './rules';

const TZ = 'America/Toronto';
/** Tuesday Dec 8, 2026, 9:30 PM at the rink. */
const START = '2026-12-09T02:30:00.000Z';
/** Saturday Dec 5, 2026, noon at the rink. */
const SATURDAY_NOON = Date.parse('2026-12-05T17:00:00Z');
/** Tuesday Dec 8, 2026, 8:00 PM at the rink (after a 7:30 PM lock). */
const TUESDAY_8PM = Date.parse('2026-12-09T01:00:00Z');

const rules = (over: Partial<EventRsvpRules> = {}): EventRsvpRules => ({
  lateWindowMinutes: null,
  openToAllAt: null,
  closesAt: null,
  minSkaters: null,
  minGoalies: null,
  shortCheckAt: null,
  ...over,
});

describe('moments on the rink clock', () => {
  it('reads today as a time, this week as a weekday and further off as a date', () => {
    expect(momentText('2026-12-05T23:00:00Z', TZ, SATURDAY_NOON, TZ)).toBe('6:00 PM');
    expect(momentText('2026-12-07T02:30:00Z', TZ, SATURDAY_NOON, TZ)).toBe('Sunday 9:30 PM');
    expect(momentText('2026-12-21T02:30:00Z', TZ, SATURDAY_NOON, TZ)).toBe('Sun, Dec 20, 9:30 PM');
    expect(atMoment('2026-12-05T23:00:00Z', TZ, SATURDAY_NOON, TZ)).toBe('at 6:00 PM');
    expect(atMoment('2026-12-09T00:30:00Z', TZ, SATURDAY_NOON, TZ)).toBe('Tuesday at 7:30 PM');
    expect(atMoment('2026-12-21T02:30:00Z', TZ, SATURDAY_NOON, TZ)).toBe('on Sun, Dec 20 at 9:30 PM');
  });

  it("names the rink's zone when the device reads another clock", () => {
    expect(momentText('2026-12-05T23:00:00Z', TZ, SATURDAY_NOON, 'Europe/London')).toBe('6:00 PM EST');
  });

  it('uses the device clock for an event without a rink', () => {
    expect(momentText('2026-12-05T23:00:00Z', null, SATURDAY_NOON, 'UTC')).toBe('11:00 PM');
  });
});

describe('what everyone reads', () => {
  const base: RulesNoticeInputs = { rules: null, status: null, waitlistRank: null, isRegular: false, isOrganiser: false, now: SATURDAY_NOON, rinkZone: TZ, device: TZ };
  const regularsUntilSunday = rules({ openToAllAt: '2026-12-07T02:30:00Z' });

  it('says nothing when the rules are off', () => {
    expect(rulesNotices({ ...base, rules: rules() })).toEqual([]);
  });

  it('tells a waitlisted regular where they stand among regulars', () => {
    const [n] = rulesNotices({ ...base, rules: regularsUntilSunday, status: 'WAITLISTED', waitlistRank: 2, isRegular: true });
    expect(n).toEqual({ kind: 'regulars', tone: 'info', text: 'Regulars until Sunday 9:30 PM, then open to all · you are #2 among regulars' });
  });

  it('tells someone who is not a regular that they wait behind the regulars', () => {
    expect(rulesNotices({ ...base, rules: regularsUntilSunday })[0]?.text).toBe('Regulars until Sunday 9:30 PM, then open to all · until then you join the waitlist, behind the regulars');
    expect(rulesNotices({ ...base, rules: regularsUntilSunday, status: 'WAITLISTED', waitlistRank: 3 })[0]?.text).toBe(
      'Regulars until Sunday 9:30 PM, then open to all · you are #3 in line; regulars go first until then',
    );
    expect(rulesNotices({ ...base, rules: regularsUntilSunday, isRegular: true })[0]?.text).toBe("Regulars until Sunday 9:30 PM, then open to all · you're a regular, so a free place is yours now");
  });

  it('drops the regulars line once the places are open to all', () => {
    expect(rulesNotices({ ...base, rules: regularsUntilSunday, now: TUESDAY_8PM })).toEqual([]);
  });

  it('says when RSVPs lock, then that they closed and what is still possible', () => {
    const lock = rules({ closesAt: '2026-12-09T00:30:00Z' });
    expect(rulesNotices({ ...base, rules: lock })).toEqual([{ kind: 'lock', tone: 'info', text: 'RSVPs lock Tuesday at 7:30 PM' }]);
    expect(rulesNotices({ ...base, rules: lock, now: Date.parse('2026-12-08T17:00:00Z') })[0]?.text).toBe('RSVPs lock at 7:30 PM');
    const after = { ...base, rules: lock, now: TUESDAY_8PM };
    expect(rulesNotices({ ...after, status: 'ATTENDING' })).toEqual([{ kind: 'lock', tone: 'closed', text: 'RSVPs closed at 7:30 PM — you can still drop out' }]);
    expect(rulesNotices({ ...after, status: 'WAITLISTED', waitlistRank: 1 })[0]?.text).toBe('RSVPs closed at 7:30 PM — you can still drop out');
    expect(rulesNotices({ ...after, status: 'DECLINED' })[0]?.text).toBe('RSVPs closed at 7:30 PM — ask the organiser');
    expect(rulesNotices({ ...after, isOrganiser: true })[0]?.text).toBe('RSVPs closed at 7:30 PM — as an organiser you can still answer');
  });

  it('leaves the regulars out for someone the lock keeps out', () => {
    const both = rules({ openToAllAt: '2026-12-09T02:00:00Z', closesAt: '2026-12-09T00:30:00Z' });
    const after = { ...base, rules: both, now: TUESDAY_8PM };
    expect(rulesNotices({ ...after, status: 'DECLINED' }).map((n) => n.kind)).toEqual(['lock']);
    expect(rulesNotices({ ...after, status: 'WAITLISTED', waitlistRank: 1, isRegular: true }).map((n) => n.kind)).toEqual(['regulars', 'lock']);
    expect(rulesNotices({ ...after, isOrganiser: true }).map((n) => n.kind)).toEqual(['regulars', 'lock']);
  });

  it('locks joining at the cut-off for everyone but the organisers', () => {
    const lock = rules({ closesAt: '2026-12-09T00:30:00Z' });
    expect(isLocked(lock, TUESDAY_8PM - 60 * 60_000)).toBe(false);
    expect(isLocked(lock, Date.parse('2026-12-09T00:30:00Z'))).toBe(true);
    expect(isLocked(rules(), TUESDAY_8PM)).toBe(false);
    expect(joinLocked(lock, { isOrganiser: false }, TUESDAY_8PM)).toBe(true);
    expect(joinLocked(lock, { isOrganiser: true }, TUESDAY_8PM)).toBe(false);
  });
});

describe('the organiser form', () => {
  it('reads hours as minutes and back', () => {
    expect(parseHours('', 100)).toEqual({ value: null });
    expect(parseHours('2', 20160)).toEqual({ value: 120 });
    expect(parseHours('1,5', 20160)).toEqual({ value: 90 });
    expect(parseHours('two', 20160)).toEqual({ error: 'A number of hours, like 2 or 1.5; blank for off.' });
    expect(parseHours('169', 10080)).toEqual({ error: 'At most 168 hours (7 days).' });
    expect(hoursInput(null)).toBe('');
    expect(hoursInput(90)).toBe('1.5');
    expect(hoursInput(100)).toBe('1.67');
    expect(parseHours(hoursInput(100), 20160)).toEqual({ value: 100 });
  });

  it('reads minimums as whole numbers up to 500', () => {
    expect(parseMinimum('')).toEqual({ value: null });
    expect(parseMinimum('10')).toEqual({ value: 10 });
    expect(parseMinimum('1.5')).toHaveProperty('error');
    expect(parseMinimum('501')).toEqual({ error: 'At most 500.' });
  });

  it('turns the check time into minutes before puck drop, the day before when later than the start', () => {
    expect(checkMinutesFromClock(START, '10:00', TZ, TZ)).toBe(690);
    expect(checkMinutesFromClock(START, '22:00', TZ, TZ)).toBe(1410);
    expect(checkMinutesFromClock(START, 'noon', TZ, TZ)).toBeNull();
    expect(clockFromCheckMinutes(START, 690, TZ, TZ)).toBe('10:00');
    expect(clockFromCheckMinutes(START, null, TZ, TZ)).toBe('');
  });

  it('builds the PUT body from the draft, and says what is wrong where', () => {
    const draft = { lateWindow: '', regularsFirst: '48', cutoff: '2', minSkaters: '10', minGoalies: '2', checkAt: '10:00' };
    expect(rulesFromDraft(draft, START, TZ, TZ)).toEqual({
      rules: { lateWindowMinutes: null, regularsFirstMinutes: 2880, cutoffMinutes: 120, minSkaters: 10, minGoalies: 2, shortCheckMinutes: 690 },
    });
    expect(rulesFromDraft({ ...draft, minSkaters: '', minGoalies: '' }, START, TZ, TZ)).toEqual({
      errors: { shortCheckMinutes: 'Set a minimum of skaters or goalies for the check to look at.' },
    });
    expect(rulesFromDraft({ ...draft, cutoff: 'x' }, START, TZ, TZ)).toEqual({ errors: { cutoffMinutes: 'A number of hours, like 2 or 1.5; blank for off.' } });
    expect(draftFromRules({ ...NO_RULES, regularsFirstMinutes: 2880, minSkaters: 10, shortCheckMinutes: 690 }, START, TZ, TZ)).toEqual({
      lateWindow: '',
      regularsFirst: '48',
      cutoff: '',
      minSkaters: '10',
      minGoalies: '',
      checkAt: '10:00',
    });
  });

  it('previews each rule as a moment on the rink clock', () => {
    expect(
      rulesPreview({ lateWindowMinutes: null, regularsFirstMinutes: 2880, cutoffMinutes: 120, minSkaters: 10, minGoalies: 2, shortCheckMinutes: 690 }, START, TZ, SATURDAY_NOON, TZ),
    ).toEqual([
      'Opens to all Sunday 9:30 PM',
      'RSVPs lock Tuesday at 7:30 PM',
      'Dropping out after Monday 9:30 PM counts as late',
      'Game-day check Tuesday at 10:00 AM: below 10 skaters or 2 goalies it calls for subs',
    ]);
    expect(rulesPreview(NO_RULES, START, TZ, SATURDAY_NOON, TZ)).toEqual(['Dropping out after Monday 9:30 PM counts as late']);
  });
});
