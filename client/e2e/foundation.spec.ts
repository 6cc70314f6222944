import { expect, test, type Page, type TestInfo } from '@playwright/test';

/** A short unique suffix so each project and run gets its own people. */
function suffix(testInfo: TestInfo): string {
  return `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
}

async function createUserViaDevToken(page: Page, username: string, firstName: string, lastName: string) {
  const res = await page.request.post('/api/v1/dev/token', {
    data: { clerkId: `dev_${username}`, username, firstName, lastName },
  });
  expect(res.ok()).toBeTruthy();
  const body = (await res.json()) as { token: string; user: { id: string } };
  return body.user;
}

async function openNav(page: Page, name: string) {
  // Top navigation on wide screens, bottom tab bar on phones: exactly one is visible.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true }).filter({ visible: true }).click();
}

test('a new user signs in, onboards, finds someone and follows them', async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const targetName = `target${id}`;
  const me = `rookie${id}`;
  const target = await createUserViaDevToken(page, targetName, 'Tara', `Target${id}`);

  // Sign in with dev auth as a brand-new user.
  await page.goto('/');
  await page.getByTestId('dev-username').fill(me);
  await page.getByTestId('dev-sign-in-submit').click();

  // Onboarding: who I am, where I play, the terms.
  await expect(page.getByRole('heading', { name: /welcome to rinkside/i })).toBeVisible();
  await page.getByTestId('profile-type-PLAYER').click();
  await page.getByTestId('profile-type-FAN').click();
  await page.getByLabel('First name').fill('Rory');
  await page.getByTestId('onboarding-next').click();

  await expect(page.getByRole('heading', { name: 'Where do you play?' })).toBeVisible();
  await page.getByTestId('add-LEFT_WING').click();
  await expect(page.getByTestId('skill-LEFT_WING')).toBeVisible();
  await page.getByTestId('skill-LEFT_WING').selectOption('ADVANCED');
  await page.getByTestId('add-CENTER').click();
  await expect(page.getByTestId('skill-CENTER')).toBeVisible();
  await page.getByTestId('onboarding-next').click();

  await expect(page.getByRole('heading', { name: 'The fine print' })).toBeVisible();
  await page.getByTestId('accept-terms').check();
  await page.getByTestId('onboarding-finish').click();

  // In the app, with the live socket up.
  await expect(page.getByTestId('home-page')).toBeVisible();
  await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');

  // Find the other user and open their profile.
  await openNav(page, 'People');
  await page.getByTestId('people-search').fill(targetName);
  const row = page.getByTestId(`user-row-${targetName}`);
  await expect(row).toBeVisible();
  await row.getByRole('link').click();

  await expect(page).toHaveURL(new RegExp(`/users/${target.id}$`));
  await expect(page.getByTestId('profile-name')).toHaveText(`Tara Target${id}`);
  await expect(page.getByTestId('follower-count')).toHaveText('0');

  // Follow: the count moves at once and the server agrees after a reload.
  await page.getByTestId('follow-button').click();
  await expect(page.getByTestId('follower-count')).toHaveText('1');
  await expect(page.getByTestId('follow-button')).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(page.getByTestId('follower-count')).toHaveText('1');
  await expect(page.getByTestId('follow-button')).toHaveAccessibleName(`Unfollow Tara Target${id}`);

  // My own profile shows the positions I picked, preferred first.
  await page.goto('/me');
  await expect(page.getByTestId('profile-name')).toHaveText('Rory');
  await expect(page.getByTestId('following-count')).toHaveText('1');
  await expect(page.getByText('Left wing')).toBeVisible();
});
