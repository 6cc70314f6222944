import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Status } from '../../../lib/api-types';
import { apiError, mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { makeStatus } from '../model/test-fixtures';
import { EventSubsCall, findLabel } from './event-subs-call';

const soon = () => new Date(Date.now() + 3 * 3_600_000).toISOString();

describe('findLabel', () => {
  it('asks for what is short', () => {
    expect(findLabel({ goalies: 1, skaters: 0 })).toBe('Find a goalie');
    expect(findLabel({ goalies: 2, skaters: null })).toBe('Find goalies');
    expect(findLabel({ goalies: 0, skaters: 3 })).toBe('Find skaters');
    expect(findLabel({ goalies: null, skaters: 1 })).toBe('Find a skater');
    expect(findLabel({ goalies: 1, skaters: 2 })).toBe('Find subs');
  });
});

describe('EventSubsCall', () => {
  it('posts the event’s call for subs, then says it is up and takes it down in two taps', async () => {
    let held: Status[] = [];
    const server = mockApi({
      'GET /me/statuses': () => ({ items: held }),
      'POST /statuses': () => {
        held = [makeStatus({ id: 's-call', type: 'LOOKING_FOR_SUBS', eventId: 'e-1', positions: ['GOALIE'], expiresAt: soon() })];
        return held[0];
      },
      'DELETE /statuses/s-call': () => {
        held = [];
        return undefined;
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<EventSubsCall eventId="e-1" open={{ goalies: 1, skaters: 0 }} />);
    await user.click(await screen.findByTestId('find-subs'));
    expect(await screen.findByTestId('subs-call-posted')).toHaveTextContent('Looking for a goalie — posted');
    expect(server.callsTo('POST', '/statuses')[0]?.body).toEqual({ type: 'LOOKING_FOR_SUBS', entityType: 'USER', eventId: 'e-1' });

    await user.click(screen.getByTestId('subs-call-take-down'));
    await user.click(screen.getByTestId('subs-call-take-down'));
    expect(await screen.findByTestId('find-subs')).toHaveTextContent('Find a goalie');
    expect(server.callsTo('DELETE', '/statuses/s-call')).toHaveLength(1);
  });

  it('shows a call already up for the event (posted earlier, or in another tab)', async () => {
    let held: Status[] = [];
    mockApi({
      'GET /me/statuses': () => ({ items: held }),
      'POST /statuses': () => {
        // Someone else on the team posted it meanwhile.
        held = [makeStatus({ id: 's-other', type: 'LOOKING_FOR_SUBS', eventId: 'e-1', positions: ['CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE'], expiresAt: soon() })];
        return apiError(409, 'conflict', 'This event already has a call for subs.');
      },
    });
    const user = userEvent.setup();
    renderWithProviders(<EventSubsCall eventId="e-1" open={{ goalies: 0, skaters: 2 }} />);
    await user.click(await screen.findByTestId('find-subs'));
    expect(await screen.findByTestId('subs-call-posted')).toHaveTextContent('Looking for skaters — posted');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
