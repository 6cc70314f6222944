import { expect, test, type Page } from '@playwright/test';

/** Create an onboarded user through the API and open the app signed in as them. */
async function signInAsOnboardedUser(page: Page, username: string) {
  const res = await page.request.post('/api/v1/dev/token', { data: { clerkId: `dev_${username}`, username, firstName: 'Mo', lastName: 'Manager' } });
  expect(res.ok()).toBeTruthy();
  const { token } = (await res.json()) as { token: string };
  const headers = { Authorization: `Bearer ${token}` };
  expect((await page.request.post('/api/v1/me/legal', { headers, data: { legalVersion: '2026-11' } })).ok()).toBeTruthy();
  expect((await page.request.patch('/api/v1/me', { headers, data: { profileTypes: ['FACILITY_MANAGER'], onboardingComplete: true } })).ok()).toBeTruthy();
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), token);
}

test('a manager creates a facility and a team there, and follows both', async ({ page }, testInfo) => {
  const id = `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
  await signInAsOnboardedUser(page, `mgr${id}`);
  const rink = `North Pole Arena ${id}`;
  const team = `Polar Caps ${id}`;

  // Create a facility; validation shows beside the field first.
  await page.goto('/facilities/new');
  await page.getByTestId('create-facility').click();
  await expect(page.getByText('Give the facility a name.')).toBeVisible();
  await page.getByTestId('facility-name').fill(rink);
  await page.getByTestId('facility-timezone').click();
  await page.getByTestId('facility-timezone').fill('winnip');
  await page.getByRole('option', { name: /America\/Winnipeg/ }).click();
  await page.getByLabel('Description').fill('Olympic sheet and a studio rink.');
  await page.getByTestId('create-facility').click();

  await expect(page.getByRole('heading', { name: rink })).toBeVisible();
  await expect(page.getByText('America/Winnipeg')).toBeVisible();
  await expect(page.getByTestId('facility-follower-count')).toHaveText('0');
  await page.getByTestId('follow-button').click();
  await expect(page.getByTestId('facility-follower-count')).toHaveText('1');

  // Start a team at this rink.
  await page.getByRole('link', { name: 'New team here' }).click();
  await expect(page.getByTestId('team-facility')).toHaveValue(rink);
  await page.getByTestId('team-name').fill(team);
  await page.getByTestId('create-team').click();
  await expect(page.getByRole('heading', { name: team })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(rink) })).toBeVisible();
  await page.getByTestId('follow-button').click();
  await expect(page.getByTestId('team-follower-count')).toHaveText('1');

  // Both show up on the home dashboard.
  await page.goto('/');
  await expect(page.getByRole('link', { name: new RegExp(rink) })).toBeVisible();
  await expect(page.getByRole('link', { name: new RegExp(team) })).toBeVisible();

  // And the team is findable by search.
  await page.goto('/teams');
  await page.getByTestId('team-search').fill(`Polar Caps ${id}`);
  await expect(page.getByRole('link', { name: new RegExp(team) })).toBeVisible();
});

test('staff edit a facility, share it with a manager, and run a season with divisions', async ({ page }, testInfo) => {
  const id = `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
  // A second person to make manager (created first, so the owner's token is the one in the page).
  const helperName = `help${id}`;
  expect((await page.request.post('/api/v1/dev/token', { data: { clerkId: `dev_${helperName}`, username: helperName, firstName: 'Hal', lastName: 'Helper' } })).ok()).toBeTruthy();
  await signInAsOnboardedUser(page, `own${id}`);
  const rink = `Bay Arena ${id}`;

  await page.goto('/facilities/new');
  await page.getByTestId('facility-name').fill(`Bay Rink ${id}`);
  await page.getByTestId('create-facility').click();
  await expect(page.getByRole('heading', { name: `Bay Rink ${id}` })).toBeVisible();

  // Edit: a new name and a new time zone.
  await page.getByTestId('edit-facility').click();
  await page.getByTestId('facility-name').fill(rink);
  await page.getByTestId('facility-timezone').click();
  await page.getByTestId('facility-timezone').fill('toronto');
  await page.getByRole('option', { name: /America\/Toronto/ }).click();
  await page.getByTestId('facility-website').fill('bay.example.com');
  await page.getByTestId('save-facility').click();
  await expect(page.getByText('Start with http:// or https://')).toBeVisible();
  await page.getByTestId('facility-website').fill('https://bay.example.com');
  await page.getByTestId('save-facility').click();
  await expect(page.getByRole('heading', { name: rink })).toBeVisible();
  await expect(page.getByTestId('facility-timezone-text')).toContainText('America/Toronto');

  // The owner makes someone a manager.
  await page.getByTestId('staff-add-toggle').click();
  await page.getByTestId('manager-picker').click();
  await page.getByTestId('manager-picker').fill(helperName);
  await page.getByRole('option', { name: new RegExp(`Hal Helper @${helperName}`) }).click();
  await page.getByTestId('add-manager').click();
  await expect(page.getByTestId(`staff-manager-${helperName}`)).toContainText('Hal Helper');

  // A season, in the rink's days.
  await page.getByTestId('new-season').click();
  await page.getByTestId('season-name').fill(`Winter ${id}`);
  await page.getByTestId('season-start').fill('2026-09-01');
  await page.getByTestId('season-end').fill('2026-08-01');
  await page.getByTestId('save-season').click();
  await expect(page.getByText('The last day can’t be before the first.')).toBeVisible();
  await page.getByTestId('season-end').fill('2027-03-31');
  await page.getByTestId('season-active').check();
  await page.getByTestId('save-season').click();
  await expect(page.getByRole('heading', { name: `Winter ${id}` })).toBeVisible();
  await expect(page.getByTestId('season-dates')).toHaveText('Sep 1, 2026 – Mar 31, 2027');
  await expect(page.getByTestId('season-games-link')).toHaveAttribute('href', /\/seasons\/[^/]+\/games$/);
  await expect(page.getByTestId('season-display-link')).toHaveAttribute('href', /^\/display\/season\//);

  // Divisions: one added, a second of the same name refused beside the field.
  for (const attempt of [1, 2]) {
    await page.getByTestId('add-mapping').click();
    const form = page.getByTestId('new-mapping-form');
    await form.getByTestId('mapping-name').fill('C2');
    await form.getByTestId('mapping-level').selectOption('INTERMEDIATE');
    await form.getByTestId('save-mapping').click();
    if (attempt === 1) await expect(page.getByTestId('mapping-C2')).toContainText('L5 · Intermediate');
    else await expect(form).toContainText('This season already has a division of that name');
  }

  // Schedule sync settings live in the season's form (the card links to
  // them), checked beside the fields; the card then says what is true.
  await expect(page.getByTestId('sync-status')).toHaveText('Schedule sync is off');
  await page.getByTestId('add-sync-url').click();
  await page.getByTestId('season-sync-enabled').check();
  await page.getByTestId('save-season').click();
  await expect(page.getByText('Add the schedule URL first.')).toBeVisible();
  await page.getByTestId('season-sync-url').fill('https://league.example.com/schedule.ics');
  await page.getByTestId('save-season').click();
  await expect(page.getByTestId('sync-url-shown')).toHaveText('https://league.example.com/schedule.ics');
  await expect(page.getByTestId('sync-status')).toContainText('Not synced yet · first sync');

  // Back at the rink, the season is listed as active.
  await page.getByRole('link', { name: rink }).first().click();
  await expect(page.getByTestId('facility-seasons')).toContainText(`Winter ${id}`);
  await expect(page.getByTestId('facility-seasons')).toContainText('Active');
});
