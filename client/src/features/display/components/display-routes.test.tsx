// The arena display routes sit before the auth gate (app/app-routes.tsx): a
// signed-out visitor gets the display, never the sign-in screen.

import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import { AppRoutes } from '../../../app/app-routes';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';

describe('display routes', () => {
  it('render the game display for a signed-out visitor', async () => {
    mockApi({ 'GET /games/g-1': { __reply: true, status: 404, body: { error: { code: 'not_found', message: 'game not found' } } } });
    renderWithProviders(<AppRoutes />, { user: null, route: '/display/game/g-1' });
    expect(await screen.findByTestId('game-display')).toBeInTheDocument();
    expect(screen.queryByTestId('dev-sign-in')).not.toBeInTheDocument();
    expect(await screen.findByText('No such game')).toBeInTheDocument();
  });

  it('render the season display for a signed-out visitor', async () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { user: null, route: '/display/season/s-1' });
    expect(await screen.findByTestId('season-display')).toBeInTheDocument();
    expect(screen.queryByTestId('dev-sign-in')).not.toBeInTheDocument();
  });

  it("render the rink lobby's open spots for a signed-out visitor", async () => {
    mockApi({ 'GET /facilities/f-1': { __reply: true, status: 404, body: { error: { code: 'not_found', message: 'facility not found' } } } });
    renderWithProviders(<AppRoutes />, { user: null, route: '/display/facility/f-1/subs' });
    expect(await screen.findByTestId('lobby-display')).toBeInTheDocument();
    expect(screen.queryByTestId('dev-sign-in')).not.toBeInTheDocument();
    expect(await screen.findByText('No such rink')).toBeInTheDocument();
  });

  it('keep every other page behind sign-in', () => {
    mockApi({});
    renderWithProviders(<AppRoutes />, { user: null, route: '/games/g-1' });
    expect(screen.getByTestId('dev-sign-in')).toBeInTheDocument();
  });
});
