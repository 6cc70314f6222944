import { describe, expect, it } from 'vitest';
import { createBody, defaultUntil, endOfToday, newDraft, patchBody, validateDraft } from './status-draft';
import { makeStatus } from './test-fixtures';

const at = (h: number, m = 0) => new Date(2030, 2, 10, h, m);

describe('the status form', () => {
  it('defaults tonight’s kinds to the end of today, and leaves the season-long kinds to the server', () => {
    expect(defaultUntil('AVAILABLE_TO_SUB', at(18))).toBe('2030-03-10T23:59');
    expect(defaultUntil('LOOKING_FOR_SUBS', at(9))).toBe('2030-03-10T23:59');
    expect(defaultUntil('LOOKING_FOR_TEAM', at(18))).toBe('');
    expect(defaultUntil('RECRUITING', at(18))).toBe('');
    // Almost midnight: the end of today would be gone before anyone saw it.
    expect(endOfToday(at(23, 45))).toBe('2030-03-11T23:59');
  });

  it('refuses a past end, one too far ahead, an overlong message, and a team kind without a team', () => {
    const now = at(18);
    expect(validateDraft(newDraft('AVAILABLE_TO_SUB', now), now)).toEqual({});
    expect(validateDraft({ ...newDraft('AVAILABLE_TO_SUB', now), until: '2030-03-10T17:00' }, now)).toEqual({ expiresAt: 'Pick a time in the future.' });
    expect(validateDraft({ ...newDraft('AVAILABLE_TO_SUB', now), until: '2030-03-30T12:00' }, now)).toEqual({ expiresAt: 'At most 14 days ahead.' });
    expect(validateDraft({ ...newDraft('LOOKING_FOR_TEAM', now), until: '2030-03-30T12:00' }, now)).toEqual({});
    expect(validateDraft({ ...newDraft('LOOKING_FOR_TEAM', now), message: 'x'.repeat(501) }, now)).toEqual({ message: 'At most 500 characters.' });
    expect(validateDraft({ ...newDraft('LOOKING_FOR_TEAM', now), message: `  ${'x'.repeat(500)}  ` }, now)).toEqual({});
    expect(validateDraft({ ...newDraft('RECRUITING', now) }, now)).toEqual({ target: 'Pick the team this is for.' });
  });

  it('sends a person’s status for themselves and a team’s for the team', () => {
    const now = at(18);
    const mine = createBody({ ...newDraft('AVAILABLE_TO_SUB', now), positions: ['GOALIE'], message: '  Own gear  ' });
    expect(mine).toEqual({ type: 'AVAILABLE_TO_SUB', entityType: 'USER', positions: ['GOALIE'], message: 'Own gear', expiresAt: new Date(2030, 2, 10, 23, 59).toISOString() });
    const team = createBody({ target: 't-1', type: 'RECRUITING', positions: [], message: '', until: '' });
    expect(team).toEqual({ type: 'RECRUITING', entityType: 'TEAM', teamId: 't-1', positions: [] });
  });

  it('patches only what changed, clearing a removed message', () => {
    const s = makeStatus({ message: 'Free after 8', positions: ['GOALIE'] });
    const untouched = { target: 'me', type: s.type, positions: ['GOALIE' as const], message: 'Free after 8', until: '' };
    expect(patchBody(untouched, s)).toEqual({});
    expect(patchBody({ ...untouched, message: ' ', positions: [] }, s)).toEqual({ message: null, positions: [] });
  });
});
