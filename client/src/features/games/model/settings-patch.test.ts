import { describe, expect, it } from 'vitest';
import { ownSettings, settingsPatch } from './settings-patch';

const SEASON = { periodMinutes: 15, overtimeMinutes: 5, clockMode: 'STOP' as const };

describe('ownSettings and settingsPatch', () => {
  it('leaves what the season decides empty', () => {
    expect(ownSettings(SEASON, SEASON)).toEqual({ periodMinutes: null, overtimeMinutes: null, clockMode: null });
    expect(ownSettings({ ...SEASON, periodMinutes: 12, clockMode: 'RUNNING' }, SEASON)).toEqual({ periodMinutes: 12, overtimeMinutes: null, clockMode: 'RUNNING' });
    expect(ownSettings(undefined, SEASON)).toEqual({ periodMinutes: null, overtimeMinutes: null, clockMode: null });
  });

  it('sends new values, null to go back to the season, nothing unchanged', () => {
    const before = { periodMinutes: 12, overtimeMinutes: null, clockMode: 'RUNNING' as const };
    expect(settingsPatch(before, before)).toEqual({});
    expect(settingsPatch(before, { periodMinutes: null, overtimeMinutes: 3, clockMode: 'RUNNING' })).toEqual({ periodMinutes: null, overtimeMinutes: 3 });
  });
});
