import { describe, expect, it } from 'vitest';
import { act, render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createStore, Provider as JotaiProvider } from 'jotai';
import { connectionStateAtom } from '../lib/ws';
import { RefreshOnReconnect } from './refresh-on-reconnect';

function setup() {
  const store = createStore();
  store.set(connectionStateAtom, 'live');
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const invalidated: number[] = [];
  queryClient.getQueryCache().subscribe((e) => {
    if (e.type === 'updated' && e.action.type === 'invalidate') invalidated.push(Date.now());
  });
  queryClient.setQueryData(['events', 'e-1'], { id: 'e-1' });
  render(
    <QueryClientProvider client={queryClient}>
      <JotaiProvider store={store}>
        <RefreshOnReconnect />
      </JotaiProvider>
    </QueryClientProvider>,
  );
  const isStale = () => queryClient.getQueryState(['events', 'e-1'])?.isInvalidated ?? false;
  return { store, isStale, invalidated };
}

describe('RefreshOnReconnect', () => {
  it('reads everything again when the socket comes back after it was down', () => {
    const { store, isStale } = setup();
    expect(isStale()).toBe(false);
    act(() => store.set(connectionStateAtom, 'reconnecting'));
    expect(isStale()).toBe(false);
    act(() => store.set(connectionStateAtom, 'live'));
    expect(isStale()).toBe(true);
  });

  it('does nothing on the first connection of the tab', () => {
    const { store, isStale } = setup();
    act(() => store.set(connectionStateAtom, 'connecting'));
    act(() => store.set(connectionStateAtom, 'live'));
    expect(isStale()).toBe(false);
  });

  it('counts an offline spell as down too, once per return', () => {
    const { store, invalidated } = setup();
    act(() => store.set(connectionStateAtom, 'offline'));
    act(() => store.set(connectionStateAtom, 'live'));
    const afterFirst = invalidated.length;
    expect(afterFirst).toBeGreaterThan(0);
    act(() => store.set(connectionStateAtom, 'live'));
    expect(invalidated).toHaveLength(afterFirst);
  });
});
