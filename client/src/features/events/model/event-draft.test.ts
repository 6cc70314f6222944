import { describe, expect, it } from 'vitest';
import type { RinkEvent } from '../../../lib/api-types';
import { toLocalInput } from '../../../lib/time-zone';
import { createInput, draftFromEvent, emptyDraft, patchInput, suggestedEnd, validateDraft } from './event-draft';

function event(over: Partial<RinkEvent> = {}): RinkEvent {
  return {
    id: 'e-1',
    title: 'Noon skate',
    description: 'Full gear',
    location: null,
    startDate: '2026-12-01T17:00:00.000Z',
    endDate: '2026-12-01T18:30:00.000Z',
    imageUrl: null,
    creatorId: 'u-me',
    facilityId: 'f-1',
    hostedByFacility: false,
    seasonId: null,
    externalHomeTeamName: null,
    externalAwayTeamName: null,
    externalRink: null,
    homeScore: null,
    awayScore: null,
    eventType: 'PRACTICE',
    maxSkaters: 20,
    maxGoalies: 2,
    groupConfig: null,
    version: 3,
    cancelledAt: null,
    cancelReason: null,
    createdAt: '2026-11-01T00:00:00.000Z',
    updatedAt: '2026-11-01T00:00:00.000Z',
    teams: [],
    seriesId: null,
    rsvpRules: { lateWindowMinutes: null, openToAllAt: null, closesAt: null, minSkaters: null, minGoalies: null, shortCheckAt: null },
    ...over,
  };
}

describe('event draft', () => {
  it('creates with only what is filled in, limits as numbers and times in UTC', () => {
    const d = { ...emptyDraft(), title: '  Pickup ', startDate: '2026-12-01T12:00', maxSkaters: '10', eventType: 'PUBLIC_SKATING' as const };
    const input = createInput(d);
    expect(input).toEqual({ title: 'Pickup', startDate: new Date('2026-12-01T12:00').toISOString(), eventType: 'PUBLIC_SKATING', maxSkaters: 10 });
  });

  it('patches only what changed, clearing emptied fields with null', () => {
    const original = event();
    const d = { ...draftFromEvent(original), description: '', maxGoalies: '', maxSkaters: '22' };
    expect(patchInput(original, d)).toEqual({ description: null, maxGoalies: null, maxSkaters: 22 });
  });

  it('does not resend an untouched start time', () => {
    const original = event({ startDate: '2026-12-01T17:00:30.000Z' });
    expect(patchInput(original, draftFromEvent(original))).toEqual({});
  });

  it('sends a changed group config whole, and null to remove it', () => {
    const original = event({ groupConfig: { balanceBy: 'ORDER', groups: [{ name: 'Dark', color: '#111111' }, { name: 'Light', color: '#EEEEEE' }] } });
    const d = draftFromEvent(original);
    expect(patchInput(original, d)).toEqual({});
    expect(patchInput(original, { ...d, groupConfig: { ...d.groupConfig!, balanceBy: 'POSITION' } })).toEqual({
      groupConfig: { balanceBy: 'POSITION', groups: [{ name: 'Dark', color: '#111111' }, { name: 'Light', color: '#eeeeee' }] },
    });
    expect(patchInput(original, { ...d, groupConfig: null })).toEqual({ groupConfig: null });
  });

  it('checks what it can before the server does', () => {
    const bad = {
      ...emptyDraft(),
      endDate: '2026-12-01T10:00',
      maxSkaters: '-1',
      homeScore: '1000',
      imageUrl: 'ftp://x',
      groupConfig: { balanceBy: 'ORDER' as const, groups: [{ name: 'Only', color: '#123456' }] },
    };
    expect(validateDraft(bad)).toEqual({
      title: 'Give the event a name.',
      startDate: 'When does it start?',
      maxSkaters: 'A whole number up to 500, or empty for no limit.',
      homeScore: '0–999.',
      imageUrl: 'Start with http:// or https://',
      groupConfig: '2 to 4 groups.',
    });
    expect(validateDraft({ ...emptyDraft(), title: 'x', startDate: '2026-12-01T12:00', endDate: '2026-12-01T11:00' })).toEqual({ endDate: 'Ends before it starts.' });
  });

  it('counts a title as the server does and refuses one over 200 characters, saying how long it is', () => {
    const d = { ...emptyDraft(), startDate: '2026-12-01T12:00' };
    expect(validateDraft({ ...d, title: `  ${'é'.repeat(200)}  ` })).toEqual({});
    // One emoji is one character to the server, two UTF-16 units here.
    expect(validateDraft({ ...d, title: '🏒'.repeat(200) })).toEqual({});
    expect(validateDraft({ ...d, title: 'x'.repeat(201) })).toEqual({ title: '201 characters; at most 200.' });
  });

  it('suggests a 90-minute slot', () => {
    expect(suggestedEnd('2026-12-01T19:00')).toBe('2026-12-01T20:30');
    expect(suggestedEnd('')).toBe('');
    expect(toLocalInput(null)).toBe('');
  });

  it('sends a weekly repeat on create, until eight weeks out unless told, and never for games', () => {
    const d = { ...emptyDraft(), title: 'Tuesday pickup', startDate: '2026-12-01T21:30', eventType: 'OTHER' as const, repeat: 'WEEKLY' as const };
    expect(createInput(d, 'America/Toronto').repeat).toEqual({ frequency: 'WEEKLY', until: '2027-01-26', timeZone: 'America/Toronto' });
    expect(createInput({ ...d, repeatUntil: '2027-03-30' }, 'UTC').repeat).toEqual({ frequency: 'WEEKLY', until: '2027-03-30', timeZone: 'UTC' });
    expect(createInput({ ...d, eventType: 'GAME' }).repeat).toBeUndefined();
    expect(createInput({ ...d, repeat: 'NONE' }).repeat).toBeUndefined();
    // An edit never carries it.
    expect(patchInput(event(), { ...draftFromEvent(event()), repeat: 'WEEKLY' })).toEqual({});
  });

  it('refuses a series that ends before it starts or runs past 52 weeks', () => {
    const d = { ...emptyDraft(), title: 'Tuesday pickup', startDate: '2026-12-01T21:30', repeat: 'WEEKLY' as const };
    const now = Date.parse('2026-11-24T12:00:00Z');
    expect(validateDraft({ ...d, repeatUntil: '2027-11-23' }, now).repeatUntil).toBeUndefined();
    expect(validateDraft({ ...d, repeatUntil: '2027-11-30' }, now).repeatUntil).toBe('At most 52 events: pick an earlier end.');
    expect(validateDraft({ ...d, repeatUntil: '2026-11-30' }, now).repeatUntil).toBe('Pick a day on or after the first event.');
    expect(validateDraft({ ...d, repeatUntil: '2026-11-30', eventType: 'EXTERNAL_GAME' }, now).repeatUntil).toBeUndefined();
  });
});
