import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { ConnectionIndicator } from './connection-indicator';
import { connectionStateAtom } from '../lib/ws';

describe('ConnectionIndicator', () => {
  it('follows the socket state', () => {
    const store = createStore();
    render(
      <JotaiProvider store={store}>
        <ConnectionIndicator />
      </JotaiProvider>,
    );
    const indicator = screen.getByTestId('connection-indicator');
    expect(indicator).toHaveTextContent('Connecting');
    act(() => store.set(connectionStateAtom, 'live'));
    expect(indicator).toHaveTextContent('Live');
    expect(indicator).toHaveAttribute('data-state', 'live');
    act(() => store.set(connectionStateAtom, 'reconnecting'));
    expect(indicator).toHaveTextContent('Reconnecting…');
    act(() => store.set(connectionStateAtom, 'offline'));
    expect(indicator).toHaveTextContent('Offline');
  });
});
