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
