import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ApiError } from './api';
import { placeRefusal, refusalText, useFormErrors } from './use-form-errors';

const refused = (details: Record<string, unknown>) => new ApiError(422, 'validation_failed', 'invalid fields', details);

describe('placing a refusal', () => {
  it('puts each field message beside its field, capitalised', () => {
    expect(placeRefusal(refused({ name: 'must not be empty', email: 'not an email address' }))).toEqual({
      fields: { name: 'Must not be empty', email: 'Not an email address' },
      form: null,
    });
  });

  it('says a message about a field the form does not show above the form', () => {
    expect(placeRefusal(refused({ email: 'not an email address', maxUses: 'must be 1–100' }), { fields: ['email'] })).toEqual({
      fields: { email: 'Not an email address' },
      form: 'Must be 1–100',
    });
  });

  it('puts several server fields on the form field that stands for them', () => {
    const rename = (f: string) => (f === 'captain' || f === 'alternateCaptain' ? 'letter' : f);
    expect(placeRefusal(refused({ alternateCaptain: 'two alternates already' }), { rename, fields: ['letter'] }).fields).toEqual({ letter: 'Two alternates already' });
  });

  it('places a code refused without details beside its field, in the server\u2019s words', () => {
    const err = new ApiError(409, 'jersey_taken', '#9 is taken on this roster');
    expect(placeRefusal(err, { codes: { jersey_taken: 'jerseyNumber' } })).toEqual({ fields: { jerseyNumber: '#9 is taken on this roster' }, form: null });
    expect(placeRefusal(err)).toEqual({ fields: {}, form: '#9 is taken on this roster' });
  });

  it('says anything else above the form', () => {
    expect(placeRefusal(new Error('offline'))).toEqual({ fields: {}, form: 'Offline' });
    expect(placeRefusal('nonsense')).toEqual({ fields: {}, form: 'Something went wrong.' });
  });

  it('reads as one sentence where there is no field to put it beside', () => {
    expect(refusalText(refused({ userIds: 'the two players are on the same side' }))).toBe('The two players are on the same side');
    expect(refusalText(new ApiError(409, 'conflict', 'sides are made'))).toBe('Sides are made');
  });
});

describe('useFormErrors', () => {
  it('shows what the form found, and lets a save go only when it found nothing', () => {
    const { result } = renderHook(() => useFormErrors());
    let ok = true;
    act(() => void (ok = result.current.check({ name: 'Give it a name.', other: undefined })));
    expect(ok).toBe(false);
    expect(result.current.errors).toEqual({ name: 'Give it a name.' });
    act(() => void (ok = result.current.check({})));
    expect(ok).toBe(true);
    expect(result.current.errors).toEqual({});
  });

  it('runs a save, and places its refusal', async () => {
    const { result } = renderHook(() => useFormErrors({ fields: ['name'] }));
    let ok = true;
    await act(async () => {
      ok = await result.current.run(() => Promise.reject(refused({ name: 'taken', seasonId: 'gone' })));
    });
    expect(ok).toBe(false);
    expect(result.current.errors).toEqual({ name: 'Taken' });
    expect(result.current.formError).toBe('Gone');
    expect(result.current.submitting).toBe(false);
    // The last message above the form goes with the next check.
    act(() => void result.current.check({}));
    expect(result.current.formError).toBeNull();
    await act(async () => {
      ok = await result.current.run(() => Promise.resolve('saved'));
    });
    expect(ok).toBe(true);
  });

  it('takes down the messages of the fields edited, or all of them', () => {
    const { result } = renderHook(() => useFormErrors());
    act(() => void result.current.check({ name: 'A', email: 'B', phone: 'C' }));
    act(() => result.current.clear('name', 'phone'));
    expect(result.current.errors).toEqual({ email: 'B' });
    act(() => result.current.setError('name', 'Again'));
    expect(result.current.errors).toEqual({ email: 'B', name: 'Again' });
    act(() => result.current.clear());
    expect(result.current.errors).toEqual({});
  });
});
