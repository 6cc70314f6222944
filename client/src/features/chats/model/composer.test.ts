import { describe, expect, it } from 'vitest';
import { checkDraft, COUNTER_FROM, MAX_CHARS } from './composer';

describe('checkDraft', () => {
  it('counts characters after trimming, an emoji as one, and says when the counter shows and when it is too long', () => {
    expect(checkDraft('   \n ')).toMatchObject({ count: 0, empty: true, over: false, showCounter: false });
    expect(checkDraft('  🏒 ok ')).toMatchObject({ count: 4, empty: false });
    expect(checkDraft('a'.repeat(COUNTER_FROM - 1)).showCounter).toBe(false);
    expect(checkDraft('a'.repeat(COUNTER_FROM))).toMatchObject({ showCounter: true, over: false });
    expect(checkDraft('🏒'.repeat(MAX_CHARS))).toMatchObject({ count: MAX_CHARS, over: false });
    expect(checkDraft('a'.repeat(MAX_CHARS + 1))).toMatchObject({ over: true });
  });
});
