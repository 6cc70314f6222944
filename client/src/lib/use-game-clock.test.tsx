import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Profiler } from 'react';
import { act, render, screen } from '@testing-library/react';
import type { GameClock } from './api-types';
import { formatClock } from './game-clock';
import { timeSync } from './time-sync';
import { useGameClock } from './use-game-clock';

function Face({ clock }: { clock: GameClock | null }) {
  const live = useGameClock(clock);
  return <span data-testid="face">{live ? formatClock(live.leftMs) : 'none'}</span>;
}

/** Renders of Face, counted by the Profiler around it. */
let renders = 0;
const onRender = () => {
  renders += 1;
};
const T0 = 1_764_424_800_000;
const clock = (over: Partial<GameClock> = {}): GameClock => ({ phase: 'PLAY', running: true, remainingMs: 65_000, at: T0, periodMs: 1_200_000, offsetMs: 0, ...over });

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout'] });
  vi.setSystemTime(T0);
  timeSync.reset();
  renders = 0;
});

afterEach(() => {
  vi.useRealTimers();
  timeSync.reset();
});

describe('useGameClock', () => {
  it('redraws every frame while the clock runs', () => {
    render(<Face clock={clock()} />);
    expect(screen.getByTestId('face')).toHaveTextContent('1:05');
    act(() => vi.advanceTimersByTime(5_100));
    expect(screen.getByTestId('face')).toHaveTextContent('59.9');
    // Each frame draws the time of that frame.
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      act(() => vi.advanceTimersByTime(100));
      seen.add(screen.getByTestId('face').textContent ?? '');
    }
    expect([...seen]).toEqual(['59.8', '59.7', '59.6', '59.5', '59.4']);
  });

  it('does not redraw while stopped', () => {
    render(
      <Profiler id="face" onRender={onRender}>
        <Face clock={clock({ running: false })} />
      </Profiler>,
    );
    const before = renders;
    act(() => vi.advanceTimersByTime(5_000));
    expect(renders).toBe(before);
    expect(screen.getByTestId('face')).toHaveTextContent('1:05');
  });

  it('reads the server’s now: a new time sample moves the clock at once', () => {
    // The clock started 10 s ago by the server's clock, which runs 10 s ahead of this device.
    render(<Face clock={clock({ at: T0, remainingMs: 65_000 })} />);
    expect(screen.getByTestId('face')).toHaveTextContent('1:05');
    act(() => timeSync.addSample({ sent: T0, received: T0, serverNow: T0 + 10_000 }));
    expect(screen.getByTestId('face')).toHaveTextContent('55.0');
  });

  it('shows nothing without a clock', () => {
    render(<Face clock={null} />);
    expect(screen.getByTestId('face')).toHaveTextContent('none');
  });
});
