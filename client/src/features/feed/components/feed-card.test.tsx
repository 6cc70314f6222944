import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithProviders } from '../../../testing/render';
import { feedItem } from '../model/test-fixtures';
import type { FeedEventResource, FeedSeasonResource } from '../model/types';
import { FeedCard } from './feed-card';

const season: FeedSeasonResource = { id: 's9', name: 'Fall 2026 Adult League', startDate: '2026-09-01T04:00:00Z', endDate: '2027-03-31T04:00:00Z', facilityId: 'f1', facilityName: 'Polar Arena' };

describe('FeedCard', () => {
  it('tells a sync’s new league games and links them to their season', () => {
    renderWithProviders(<FeedCard item={feedItem({ id: 'g', type: 'EXTERNAL_GAME_IMPORTED', resourceType: 'SEASON', resourceId: 's9', resource: season, aggregatedData: { actorIds: [], count: 1, games: 12 } })} />);
    const card = screen.getByTestId('feed-item');
    expect(within(card).getByTestId('feed-headline')).toHaveTextContent('12 league games added to Fall 2026 Adult League');
    expect(within(card).getByRole('link', { name: 'Fall 2026 Adult League' })).toHaveAttribute('href', '/seasons/s9');
    // The season block under the headline links there too, with its rink.
    const block = within(card).getAllByRole('link').find((a) => a.classList.contains('feed-block'));
    expect(block).toHaveAttribute('href', '/seasons/s9');
    expect(block).toHaveTextContent('Polar Arena');
  });

  it('still shows an older item about one imported game as that event', () => {
    const event: FeedEventResource = {
      id: 'e1',
      title: 'Blue Liners vs Top Shelf',
      eventType: 'EXTERNAL_GAME',
      startDate: '2026-12-01T01:30:00Z',
      endDate: null,
      facilityId: 'f1',
      facilityName: 'Polar Arena',
      location: null,
      cancelled: false,
      maxSkaters: null,
      maxGoalies: null,
      attendingSkaters: 0,
      attendingGoalies: 0,
      skaterSpotsLeft: null,
      goalieSpotsLeft: null,
    };
    renderWithProviders(<FeedCard item={feedItem({ id: 'g', type: 'EXTERNAL_GAME_IMPORTED', resourceType: 'EVENT', resource: event })} />);
    expect(screen.getByTestId('feed-headline')).toHaveTextContent('New league game on the schedule: Blue Liners vs Top Shelf');
    const block = screen.getAllByRole('link').find((a) => a.classList.contains('feed-block'));
    expect(block).toHaveAttribute('href', '/events/e1');
  });
});
