// Invites (docs/invites.md) end to end: a captain makes an invite link on
// the roster page in one tap, copies it and reads it off the page. Someone
// who has never been on Rinkside opens it in a browser of their own, sees
// who invited them to what, signs up through the dev sign-in and
// onboarding, comes back to the invite, joins in one tap and lands on the
// roster among its players. The captain's page shows the new player live
// and the invite "1 of 25 used"; the captain revokes it, and the next
// newcomer to open the link is told it was revoked, with nothing to tap.

import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';
import { auth, create, createPerson, shot, suffix } from './people';

const DAY_MS = 86_400_000;

/** The page is on the tab's one socket, so what it shows from here on comes live. */
async function live(p: Page) {
  await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
}

/** A browser of someone who has never signed in here: own storage, no token, sized like the project. */
async function openSignedOut(browser: Browser, testInfo: TestInfo): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
  });
  return context.newPage();
}

/** Sign up as a brand-new dev user on the sign-in screen and go through onboarding as a left wing. */
async function signUp(p: Page, username: string, firstName: string, lastName: string) {
  await p.getByTestId('dev-username').fill(username);
  await p.getByTestId('dev-sign-in-submit').click();

  await expect(p.getByRole('heading', { name: /welcome to rinkside/i })).toBeVisible();
  await p.getByTestId('profile-type-PLAYER').click();
  await p.getByLabel('First name').fill(firstName);
  await p.getByLabel('Last name').fill(lastName);
  await p.getByTestId('onboarding-next').click();

  await expect(p.getByRole('heading', { name: 'Where do you play?' })).toBeVisible();
  await p.getByTestId('add-LEFT_WING').click();
  await expect(p.getByTestId('skill-LEFT_WING')).toBeVisible();
  await p.getByTestId('onboarding-next').click();

  await expect(p.getByRole('heading', { name: 'The fine print' })).toBeVisible();
  await p.getByTestId('accept-terms').check();
  await p.getByTestId('onboarding-finish').click();
}

test('a captain shares an invite link, a newcomer signs up through it and lands on the roster, and a revoked link takes nobody', async ({ page, browser, baseURL }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const captain = await createPerson(page, `ivc${id}`, 'Cara', 'Captain');

  // The captain's team and its roster in a season at a rink.
  const facility = await create<{ id: string }>(page, captain, '/api/v1/facilities', { name: `Birch Arena ${id}`, timezone: 'America/Toronto' });
  const season = await create<{ id: string }>(page, captain, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter League ${id}`,
    startDate: new Date(Date.now() - 30 * DAY_MS).toISOString(),
    endDate: new Date(Date.now() + 120 * DAY_MS).toISOString(),
    isActive: true,
  });
  const team = await create<{ id: string }>(page, captain, '/api/v1/teams', { name: `Owls HC ${id}`, facilityId: facility.id });
  const roster = await create<{ id: string }>(page, captain, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name: `Owls ${id}`, status: 'ACTIVE' });
  const rosterPath = `/rosters/${roster.id}`;

  // The captain (the team's owner, who decides join requests) opens the roster and makes a link in one tap.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL });
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), captain.token);
  await page.goto(rosterPath);
  await live(page);
  const card = page.getByTestId('invite-card');
  await expect(card.getByRole('heading', { name: 'Invite players' })).toBeVisible();
  await expect(card.getByTestId('invites-empty')).toBeVisible();
  await card.getByTestId('invite-create-link').click();

  // The whole link, on this origin, with its QR code; read off the page.
  const linkField = card.getByTestId('invite-link');
  const origin = (baseURL ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await expect(linkField).toHaveValue(new RegExp(`^${origin}/invite/[A-HJKMNP-Z2-9]{12}$`));
  const link = await linkField.inputValue();
  const code = link.slice(link.lastIndexOf('/') + 1);
  await expect(card.getByTestId('invite-qr')).toBeVisible();
  await expect(card.getByTestId('invite-qr')).toHaveAttribute('data-text', link);
  await card.getByTestId('invite-copy').click();
  await expect(card.getByTestId('invite-copy')).toHaveText('Copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const row = card.getByTestId(`invite-row-${code}`);
  await expect(row.getByTestId('invite-status')).toHaveText('Active');
  await expect(row.getByTestId('invite-uses')).toHaveText('0 of 25 used');
  await expect(row.getByTestId('invite-expiry')).toContainText('Expires');
  await page.screenshot({ path: shot(testInfo, 'invite-card'), fullPage: true });

  // A newcomer, never signed up, opens the link: who invited them to what, and the way in.
  const nell = await openSignedOut(browser, testInfo);
  await nell.goto(link);
  await expect(nell.getByTestId('invite-headline')).toHaveText(`Cara Captain invited you to join Owls ${id} (Winter League ${id}) — Owls HC ${id}`);
  await expect(nell.getByTestId('invite-join')).toHaveCount(0);
  await nell.screenshot({ path: shot(testInfo, 'invite-signed-out'), fullPage: true });
  await nell.getByTestId('invite-sign-in').click();
  await expect(nell).toHaveURL(/\/sign-in\?next=%2Finvite%2F/);

  // Signs up through the dev sign-in and onboarding, and is brought back to the invite.
  const nellName = `ivn${id}`;
  await signUp(nell, nellName, 'Nell', 'Newcomer');
  await expect(nell).toHaveURL(new RegExp(`/invite/${code}$`));
  await live(nell);
  const join = nell.getByTestId('invite-join');
  await expect(join).toHaveText(`Join Owls ${id}`);
  await join.click();

  // On the roster, among its players, told so.
  await expect(nell).toHaveURL(new RegExp(`${rosterPath}$`));
  await expect(nell.getByTestId('route-notice')).toContainText(`You're on Owls ${id}`);
  await expect(nell.getByTestId(`player-${nellName}`)).toBeVisible();
  await expect(nell.getByTestId(`player-${nellName}`)).toContainText('Nell Newcomer');
  await nell.screenshot({ path: shot(testInfo, 'invite-joined'), fullPage: true });

  // The captain's page follows without a reload: the new player, and the use on the invite.
  await expect(page.getByTestId(`player-${nellName}`)).toBeVisible();
  await expect(row.getByTestId('invite-uses')).toHaveText('1 of 25 used');
  const listed = await page.request.get(`/api/v1/rosters/${roster.id}/invites`, { headers: auth(captain) });
  expect(listed.ok(), await listed.text()).toBeTruthy();
  expect(((await listed.json()) as Array<{ code: string; uses: number }>).find((i) => i.code === code)?.uses).toBe(1);

  // The captain revokes it (a second tap confirms); its link is no longer offered.
  const revoke = row.getByTestId('invite-revoke');
  await revoke.click();
  await expect(revoke).toHaveText('Revoke?');
  await revoke.click();
  await expect(row.getByTestId('invite-status')).toHaveText('Revoked');
  await expect(row.getByTestId('invite-revoke')).toHaveCount(0);
  await expect(card.getByTestId('invite-link-panel')).toHaveCount(0);
  await page.screenshot({ path: shot(testInfo, 'invite-revoked-card'), fullPage: true });

  // The next newcomer to open the link is told plainly, and offered nothing.
  const otto = await openSignedOut(browser, testInfo);
  await otto.goto(link);
  await expect(otto.getByTestId('invite-headline')).toContainText(`Owls ${id}`);
  await expect(otto.getByTestId('invite-closed')).toContainText('This invite was revoked.');
  await expect(otto.getByTestId('invite-sign-in')).toHaveCount(0);
  await expect(otto.getByTestId('invite-join')).toHaveCount(0);
  await otto.screenshot({ path: shot(testInfo, 'invite-revoked'), fullPage: true });

  for (const other of [nell, otto]) await other.context().close();
});
