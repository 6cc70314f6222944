import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import type { HistoryEntry } from '../model/history';
import { DroppedLateCard } from './dropped-late-card';

const entry = (id: string, displayName: string, kind: HistoryEntry['kind'], minutesBefore: number, late = false): HistoryEntry => ({
  id,
  at: '2030-12-01T18:00:00Z',
  userId: `u-${displayName}`,
  displayName,
  kind,
  position: 'CENTER',
  minutesBefore,
  late,
});

describe('DroppedLateCard', () => {
  it('shows each answer with how long before puck drop, marks the late ones and pages with Show more', async () => {
    const server = mockApi({
      'GET /events/e-1/history': (call) =>
        call.query.get('cursor') === 'c-2'
          ? { items: [entry('h3', 'Cat', 'DECLINED', 180, true), entry('h4', 'Dan', 'PROMOTED', 180)], nextCursor: null }
          : { items: [entry('h1', 'Ann', 'JOINED', 4320), entry('h2', 'Cat', 'JOINED', 4000)], nextCursor: 'c-2' },
    });
    renderWithProviders(<DroppedLateCard eventId="e-1" />);
    const card = await screen.findByTestId('dropped-late');
    await waitFor(() => expect(within(card).getByTestId('history-h1')).toHaveTextContent('Ann joined3 days before'));
    expect(card).toHaveTextContent('No late drop-outs so far');
    const user = userEvent.setup();
    await user.click(within(card).getByTestId('history-more'));
    const late = await within(card).findByTestId('history-h3');
    expect(late).toHaveTextContent('Cat declined3 h beforeLate');
    expect(late).toHaveClass('history-item--late');
    expect(within(card).getByTestId('history-h4')).toHaveTextContent('Dan got a place off the waitlist3 h before');
    expect(within(card).getByTestId('history-h4')).not.toHaveClass('history-item--late');
    expect(card).toHaveTextContent('1 late drop-out:');
    expect(within(card).queryByTestId('history-more')).toBeNull();
    expect(server.callsTo('GET', '/events/e-1/history').map((c) => c.query.get('cursor'))).toEqual([null, 'c-2']);
    expect(server.callsTo('GET', '/events/e-1/history')[0]?.query.get('limit')).toBe('20');

    await user.click(within(card).getByTestId('history-late-only'));
    expect(within(card).getAllByRole('listitem').map((li) => li.dataset.testid)).toEqual(['history-h3']);
  });

  it('says so when nobody has answered, and stays away when the server refuses', async () => {
    mockApi({ 'GET /events/e-1/history': { items: [], nextCursor: null }, 'GET /events/e-2/history': apiError(403, 'forbidden', 'only organisers') });
    renderWithProviders(
      <>
        <DroppedLateCard eventId="e-1" />
        <div data-testid="other">
          <DroppedLateCard eventId="e-2" />
        </div>
      </>,
    );
    await waitFor(() => expect(screen.getByTestId('dropped-late')).toHaveTextContent('Nobody has answered yet.'));
    await waitFor(() => expect(within(screen.getByTestId('other')).queryByTestId('dropped-late')).toBeNull());
  });
});
