import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderWithProviders } from '../../../testing/render';
import { apiError, mockApi, reply } from '../../../testing/mock-api';
import { person } from '../model/test-fixtures';
import { DOUBLE_TAP_MS } from '../../../lib/use-follow-toggle';
import { SuggestionList } from './suggestions';

const suggestions = { people: [person('u-bo', 'Bo', 'Berg')], facilities: [{ id: 'f1', name: 'Polar Arena' }], teams: [] };

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('SuggestionList', () => {
  it('says Following after a follow, and a second tap unfollows', async () => {
    const api = mockApi({ 'PUT /users/:id/follow': reply(204), 'DELETE /users/:id/follow': reply(204) });
    const user = userEvent.setup();
    renderWithProviders(<SuggestionList suggestions={suggestions} />);
    await user.click(screen.getByRole('button', { name: 'Follow Bo Berg' }));
    const following = await screen.findByRole('button', { name: 'Unfollow Bo Berg' });
    expect(following).toHaveAttribute('aria-pressed', 'true');
    expect(following).toHaveTextContent('Following');
    expect(api.callsTo('PUT', '/users/u-bo/follow')).toHaveLength(1);

    await new Promise((r) => setTimeout(r, DOUBLE_TAP_MS + 50));
    await user.click(following);
    await screen.findByRole('button', { name: 'Follow Bo Berg' });
    expect(api.callsTo('DELETE', '/users/u-bo/follow')).toHaveLength(1);
    expect(api.callsTo('PUT', '/users/u-bo/follow')).toHaveLength(1);
  });

  it('says why a follow failed instead of failing silently', async () => {
    mockApi({ 'PUT /facilities/:id/follow': apiError(422, 'validation_failed', 'you cannot follow this') });
    const user = userEvent.setup();
    renderWithProviders(<SuggestionList suggestions={suggestions} />);
    await user.click(screen.getByRole('button', { name: 'Follow Polar Arena' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You cannot follow this');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Follow Polar Arena' })).toHaveAttribute('aria-pressed', 'false'));
  });
});
