import { describe, expect, it } from 'vitest';
import { pickerStep, type PickerEvent, type PickerState } from './picker';

const rosters = { home: 'r-home', away: 'r-away' };

/** Runs events from closed; returns the final state and every action sent. */
function run(events: PickerEvent[]) {
  let state: PickerState = { step: 'closed' };
  const actions = [];
  for (const e of events) {
    const r = pickerStep(state, e, rosters);
    state = r.state;
    if (r.action) actions.push(r.action);
  }
  return { state, actions };
}

describe('pickerStep', () => {
  it('sends a goal with two assists the moment the second assist is tapped', () => {
    const { state, actions } = run([{ type: 'goal', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h2' }, { type: 'player', userId: 'h3' }]);
    expect(actions).toEqual([{ type: 'GOAL', rosterId: 'r-home', scorerId: 'h1', assistIds: ['h2', 'h3'] }]);
    expect(state).toEqual({ step: 'closed' });
  });

  it('sends an unassisted goal without assistIds', () => {
    const { actions } = run([{ type: 'goal', side: 'away' }, { type: 'player', userId: 'a1' }, { type: 'unassisted' }]);
    expect(actions).toEqual([{ type: 'GOAL', rosterId: 'r-away', scorerId: 'a1' }]);
  });

  it('sends one assist on "send"', () => {
    const { actions } = run([{ type: 'goal', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h2' }, { type: 'send' }]);
    expect(actions).toEqual([{ type: 'GOAL', rosterId: 'r-home', scorerId: 'h1', assistIds: ['h2'] }]);
  });

  it('sends a goal without a scorer (and so without assists) at once', () => {
    const { actions, state } = run([{ type: 'goal', side: 'home' }, { type: 'no-scorer' }]);
    expect(actions).toEqual([{ type: 'GOAL', rosterId: 'r-home' }]);
    expect(state.step).toBe('closed');
  });

  it('never lets the scorer assist, and a second tap un-picks an assist', () => {
    const { state, actions } = run([{ type: 'goal', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h2' }, { type: 'player', userId: 'h2' }]);
    expect(actions).toEqual([]);
    expect(state).toEqual({ step: 'assists', side: 'home', scorerId: 'h1', assistIds: [], clockMs: null });
  });

  it('goes back one pick at a time', () => {
    const { state } = run([{ type: 'goal', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h2' }, { type: 'back' }, { type: 'back' }]);
    expect(state).toEqual({ step: 'scorer', side: 'home', clockMs: null });
  });

  it('sends a penalty when its type is tapped, at the time the sheet shows', () => {
    const { actions } = run([{ type: 'penalty', side: 'away', clockMs: 754_000 }, { type: 'player', userId: 'a2' }, { type: 'penalty-kind', penalty: 'MAJOR', clockMs: 750_000 }]);
    expect(actions).toEqual([{ type: 'PENALTY', rosterId: 'r-away', playerId: 'a2', penalty: 'MAJOR', clockMs: 750_000 }]);
    const noClock = run([{ type: 'penalty', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'penalty-kind', penalty: 'MISCONDUCT', clockMs: null }]);
    expect(noClock.actions).toEqual([{ type: 'PENALTY', rosterId: 'r-home', playerId: 'h1', penalty: 'MISCONDUCT' }]);
  });

  it('keeps the clock of the GOAL tap through the picks', () => {
    const { actions } = run([{ type: 'goal', side: 'home', clockMs: 61_000 }, { type: 'player', userId: 'h1' }, { type: 'player', userId: 'h2' }, { type: 'back' }, { type: 'unassisted' }]);
    expect(actions).toEqual([{ type: 'GOAL', rosterId: 'r-home', scorerId: 'h1', clockMs: 61_000 }]);
    const penalty = run([{ type: 'penalty', side: 'home', clockMs: 5_000 }, { type: 'player', userId: 'h1' }, { type: 'back' }]);
    expect(penalty.state).toEqual({ step: 'penalty-player', side: 'home', clockMs: 5_000 });
  });

  it('cancels from anywhere without sending', () => {
    const { state, actions } = run([{ type: 'penalty', side: 'home' }, { type: 'player', userId: 'h1' }, { type: 'cancel' }]);
    expect(actions).toEqual([]);
    expect(state.step).toBe('closed');
  });
});
