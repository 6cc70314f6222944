import path from 'node:path';
import { expect, test, type Browser, type Page, type TestInfo } from '@playwright/test';

/** A short unique suffix so each project and run gets its own people. */
function suffix(testInfo: TestInfo): string {
  return `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
}

interface Person {
  id: string;
  token: string;
  username: string;
}

/** An onboarded dev user, created through the API. */
async function createPerson(page: Page, username: string, firstName: string, lastName: string): Promise<Person> {
  const res = await page.request.post('/api/v1/dev/token', { data: { clerkId: `dev_${username}`, username, firstName, lastName } });
  expect(res.ok()).toBeTruthy();
  const { token, user } = (await res.json()) as { token: string; user: { id: string } };
  const headers = { Authorization: `Bearer ${token}` };
  expect((await page.request.post('/api/v1/me/legal', { headers, data: { legalVersion: '2026-11' } })).ok()).toBeTruthy();
  expect((await page.request.patch('/api/v1/me', { headers, data: { profileTypes: ['PLAYER'], onboardingComplete: true } })).ok()).toBeTruthy();
  return { id: user.id, token, username };
}

/** POST through the API as `person`, expecting 201; answers the body. */
async function create<T>(page: Page, person: Person, url: string, data: unknown): Promise<T> {
  const res = await page.request.post(url, { headers: { Authorization: `Bearer ${person.token}` }, data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(201);
  return (await res.json()) as T;
}

/** A separate browser context (own storage, own socket) signed in as `person`, sized like the project. */
async function openAs(browser: Browser, testInfo: TestInfo, person: Person): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext({
    baseURL: use.baseURL,
    viewport: use.viewport,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
  });
  await context.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), person.token);
  return context.newPage();
}

const shot = (testInfo: TestInfo, name: string) => path.join(testInfo.project.outputDir, `${name}-${testInfo.project.name}.png`);

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
