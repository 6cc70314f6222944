import { describe, expect, it } from 'vitest';
import { safeReturnTo, signInPath } from './return-to';

describe('signInPath', () => {
  it('carries the page to come back to, encoded', () => {
    expect(signInPath('/invite/ABCD2345EFGH')).toBe('/sign-in?next=%2Finvite%2FABCD2345EFGH');
    expect(safeReturnTo(new URLSearchParams(signInPath('/rosters/r-1?tab=a#x').split('?')[1]).get('next'))).toBe('/rosters/r-1?tab=a#x');
  });
});

describe('safeReturnTo', () => {
  it('follows a path on this origin', () => {
    expect(safeReturnTo('/invite/ABCD2345EFGH')).toBe('/invite/ABCD2345EFGH');
    expect(safeReturnTo('/events/e-1?from=mail')).toBe('/events/e-1?from=mail');
  });

  it('goes home for anything that would leave the app, or loop', () => {
    for (const next of [null, undefined, '', 'invite/X', 'https://evil.example/', '//evil.example/x', '/\\evil.example', '/\\/evil.example', 'javascript:alert(1)', ' /x', '/sign-in', '/sign-in?next=/x']) {
      expect(safeReturnTo(next)).toBe('/');
    }
  });
});
