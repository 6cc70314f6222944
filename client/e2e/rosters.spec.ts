import { expect, test } from '@playwright/test';
import { create, createPerson, openAs, shot, suffix } from './people';

test('a player asks to join a roster, a manager approves in another browser, and the player sees it live', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const manager = await createPerson(page, `mgr${id}`, 'Maja', 'Manager');
  const player = await createPerson(page, `ply${id}`, 'Petra', 'Player');
  const keeper = await createPerson(page, `gk${id}`, 'Gus', 'Goalie');

  // The manager's rink, season and team, through the API.
  const facility = await create<{ id: string }>(page, manager, '/api/v1/facilities', { name: `Glacier Gardens ${id}`, timezone: 'America/Edmonton' });
  const season = await create<{ id: string }>(page, manager, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter ${id}`,
    startDate: '2026-09-01T06:00:00Z',
    endDate: '2027-04-01T05:59:59Z',
    isActive: true,
  });
  await create(page, manager, `/api/v1/seasons/${season.id}/division-mappings`, { facilityDivisionName: 'C2', universalDivisionScale: 'INTERMEDIATE' });
  const team = await create<{ id: string }>(page, manager, '/api/v1/teams', { name: `Ice Holes ${id}`, facilityId: facility.id });

  // The manager creates the roster from the team page; the form checks the limit beside the field.
  const mgr = await openAs(browser, testInfo, manager);
  await mgr.goto(`/teams/${team.id}`);
  await expect(mgr.getByRole('heading', { name: `Ice Holes ${id}` })).toBeVisible();
  await expect(mgr.getByTestId('team-schedule-link')).toHaveAttribute('href', `/teams/${team.id}/schedule`);
  await mgr.getByTestId('new-roster').click();
  await expect(mgr.getByTestId('roster-season')).toHaveValue(season.id);
  await mgr.getByTestId('roster-max').fill('0');
  await mgr.getByTestId('create-roster').click();
  await expect(mgr.getByText('From 1 to 100, or empty for no limit.')).toBeVisible();
  await mgr.getByTestId('roster-max').fill('12');
  await mgr.getByTestId('roster-status').selectOption('ACTIVE');
  await mgr.getByTestId('roster-division').selectOption({ label: 'C2 — level 5' });
  await mgr.getByTestId('create-roster').click();
  // The form's own URL ends in /rosters/new too: wait for the roster's page itself.
  await mgr.waitForURL((url) => /^\/rosters\/[^/]+$/.test(url.pathname));
  const rosterPath = new URL(mgr.url()).pathname;
  await expect(mgr.getByRole('heading', { name: `Ice Holes ${id}` })).toBeVisible();
  await expect(mgr.getByTestId('roster-status-chip')).toHaveText('Active');
  await expect(mgr.getByTestId('requests-queue')).toContainText('No one is waiting.');

  // The manager puts a goalie on as #30 through the people picker.
  await mgr.getByTestId('add-player').click();
  await mgr.getByTestId('player-picker').click();
  await mgr.getByTestId('player-picker').fill(keeper.username);
  await mgr.getByRole('option', { name: new RegExp(`Gus Goalie @${keeper.username}`) }).click();
  await mgr.getByTestId('player-jersey').fill('30');
  await mgr.getByTestId('player-position').selectOption('GOALIE');
  await mgr.getByTestId('save-player').click();
  await expect(mgr.getByTestId(`player-${keeper.username}`)).toContainText('30');
  await expect(mgr.getByTestId('roster-members')).toHaveText('1/12');

  // The player, in their own browser, asks to join.
  const ply = await openAs(browser, testInfo, player);
  await ply.goto(rosterPath);
  await expect(ply.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(mgr.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(ply.getByTestId('join-status')).toHaveText(`Play for Ice Holes ${id}?`);
  await ply.getByTestId('ask-to-join').click();
  await ply.getByTestId('join-position').selectOption('LEFT_DEFENSE');
  await ply.getByTestId('join-commitment').selectOption('SUBSTITUTE');
  await ply.getByTestId('join-message').fill('Two seasons of C-league, free Tuesdays.');
  await ply.getByTestId('send-join-request').click();
  await expect(ply.getByTestId('join-status')).toHaveText('Request pending');
  await expect(ply.getByTestId('join-panel')).toContainText('Two seasons of C-league, free Tuesdays.');

  // The manager's open page shows the request arrive, with its message, without a reload.
  await mgr.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
  const request = mgr.getByTestId(`request-${player.username}`);
  await expect(request).toContainText('Two seasons of C-league, free Tuesdays.');
  await expect(request).toContainText('Left defense · Substitute');
  await expect(mgr.getByTestId('pending-count')).toHaveText('1');
  await mgr.screenshot({ path: shot(testInfo, 'roster-manager-queue'), fullPage: true });

  // Approve; the player's page turns to "on the roster" live, no reload.
  await ply.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
  await request.getByTestId('approve-request').click();
  await expect(ply.getByTestId('join-status')).toHaveText('Approved — you’re on the roster');
  await expect(ply.getByTestId(`player-${player.username}`)).toBeVisible();
  await expect(ply.getByTestId('roster-members')).toHaveText('2/12');
  expect(await ply.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
  await expect(mgr.getByTestId(`request-${player.username}`)).toHaveCount(0);
  await expect(mgr.getByTestId(`player-${player.username}`)).toContainText('LD');
  expect(await mgr.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
  await ply.screenshot({ path: shot(testInfo, 'roster-player-approved'), fullPage: true });

  // A number already worn is refused beside the field.
  await mgr.getByTestId(`edit-player-${player.username}`).click();
  await mgr.getByTestId('player-jersey').fill('30');
  await mgr.getByTestId('save-player').click();
  await expect(mgr.getByTestId('edit-player-form')).toContainText('#30 is already worn on this roster');
  await expect(mgr.getByTestId('player-jersey')).toHaveAttribute('aria-invalid', 'true');
  await mgr.getByTestId('player-jersey').fill('4');
  await mgr.getByTestId('player-letter-select').selectOption('A');
  await mgr.getByTestId('save-player').click();
  await expect(mgr.getByTestId('edit-player-form')).toHaveCount(0);
  // The player sees their new number and letter live too.
  await expect(ply.getByTestId(`player-${player.username}`).getByTestId('player-number')).toHaveText('4');
  await expect(ply.getByTestId(`player-${player.username}`).getByTestId('player-letter')).toHaveText('A');

  await mgr.context().close();
  await ply.context().close();
});
