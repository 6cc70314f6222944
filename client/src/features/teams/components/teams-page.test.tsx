import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { makeTeam } from '../../../testing/fixtures';
import { mockApi } from '../../../testing/mock-api';
import { renderWithProviders } from '../../../testing/render';
import { TeamsPage } from './teams-page';

describe('TeamsPage', { timeout: 20_000 }, () => {
  it('lists teams with their followers', async () => {
    mockApi({ 'GET /teams': { items: [makeTeam({ id: 't-1', name: 'Frozen Assets', followerCount: 3, isFollowing: true })], nextCursor: null } });
    renderWithProviders(<TeamsPage />);
    const row = await screen.findByTestId('team-row-t-1');
    expect(row).toHaveTextContent('3 followers');
    expect(within(row).getByRole('link')).toHaveAttribute('href', '/teams/t-1');
    expect(screen.getByRole('button', { name: 'Unfollow Frozen Assets' })).toBeInTheDocument();
    expect(screen.getByTestId('new-team')).toHaveAttribute('href', '/teams/new');
  });

  it('invites to start the first team when there is none', async () => {
    mockApi({ 'GET /teams': { items: [], nextCursor: null } });
    renderWithProviders(<TeamsPage />);
    expect(await screen.findByText('No teams yet')).toBeInTheDocument();
    expect(screen.getByText('Start yours and invite the group chat.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start a team' })).toHaveAttribute('href', '/teams/new');
  });
});
