import { describe, expect, it } from 'vitest';
import { act, screen, within } from '@testing-library/react';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { SeriesRecordCard } from './series-record-card';

const line = (userId: string, displayName: string, attended: number, lateDropOuts: number, noShows: number) => ({ userId, displayName, attended, lateDropOuts, noShows });

describe('SeriesRecordCard', () => {
  it('shows the organiser everyone who answered, late drop-outs and no-shows marked', async () => {
    mockApi({ 'GET /event-series/s-1/record': { items: [line('u-a', 'Ann', 6, 0, 0), line('u-b', 'Bob', 4, 2, 1)] } });
    renderWithProviders(<SeriesRecordCard seriesId="s-1" isOrganiser />);
    const card = await screen.findByTestId('series-record');
    expect(card).toHaveTextContent('Series record');
    const table = within(card).getByTestId('series-record-table');
    expect(within(table).getByTestId('record-u-a')).toHaveTextContent('Ann600');
    const bob = within(table).getByTestId('record-u-b');
    expect(bob).toHaveTextContent('Bob421');
    expect(within(bob).getByText('2')).toHaveClass('ledger__owed');
    expect(within(bob).getByRole('link', { name: 'Bob' })).toHaveAttribute('href', '/users/u-b');
  });

  it('shows a player their own line in words', async () => {
    mockApi({ 'GET /event-series/s-1/record': { items: [line('u-me', 'Me', 5, 1, 0)] } });
    renderWithProviders(<SeriesRecordCard seriesId="s-1" isOrganiser={false} />);
    const card = await screen.findByTestId('series-record');
    expect(card).toHaveTextContent('Your record this series');
    expect(card).toHaveTextContent('Played 5 weeks · dropped late once · no no-shows');
    expect(within(card).queryByTestId('series-record-table')).toBeNull();
  });

  it('stays away from a player who never answered', async () => {
    mockApi({ 'GET /event-series/s-1/record': { items: [] } });
    renderWithProviders(
      <div data-testid="host">
        <SeriesRecordCard seriesId="s-1" isOrganiser={false} />
      </div>,
    );
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(within(screen.getByTestId('host')).queryByTestId('series-record')).toBeNull();
  });
});
