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

const auth = (p: Person) => ({ Authorization: `Bearer ${p.token}` });

/** POST through the API as `person`, expecting 201; answers the body. */
async function create<T>(page: Page, person: Person, url: string, data: unknown): Promise<T> {
  const res = await page.request.post(url, { headers: auth(person), data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(201);
  return (await res.json()) as T;
}

async function follow(page: Page, who: Person, url: string) {
  const res = await page.request.put(url, { headers: auth(who) });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(204);
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

/** Where the screenshots go: FEED_SHOTS when set (to keep them past the next run), else the test's output. */
const shot = (testInfo: TestInfo, name: string) =>
  process.env.FEED_SHOTS ? path.join(process.env.FEED_SHOTS, `${name}-${testInfo.project.name}.png`) : testInfo.outputPath(`${name}.png`);

test('a person posts and joins a team; a follower sees both live on the home feed, joins aggregated', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const alice = await createPerson(page, `ali${id}`, 'Alice', 'Ames');
  const carol = await createPerson(page, `car${id}`, 'Carol', 'Cole');
  const bob = await createPerson(page, `bob${id}`, 'Bob', 'Burr');

  // Alice's rink, season, team and roster, through the API.
  const facility = await create<{ id: string }>(page, alice, '/api/v1/facilities', { name: `Polar Arena ${id}`, timezone: 'America/Edmonton' });
  const season = await create<{ id: string }>(page, alice, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter ${id}`,
    startDate: '2026-09-01T06:00:00Z',
    endDate: '2027-04-01T05:59:59Z',
    isActive: true,
  });
  const team = await create<{ id: string }>(page, alice, '/api/v1/teams', { name: `Ice Owls ${id}`, facilityId: facility.id });
  const roster = await create<{ id: string }>(page, alice, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name: `Owls ${id}`, status: 'ACTIVE' });

  // Bob follows Alice and her team; a few older posts give his feed some length.
  await follow(page, bob, `/api/v1/users/${alice.id}/follow`);
  await follow(page, bob, `/api/v1/teams/${team.id}/follow`);
  for (let i = 1; i <= 4; i++) await create(page, alice, '/api/v1/posts', { content: `Warm-up post ${i} ${id}` });
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(2, 0, 0, 0);
  await create(page, alice, '/api/v1/events', { title: `Friday pickup ${id}`, startDate: start.toISOString(), eventType: 'PRACTICE', maxSkaters: 12, maxGoalies: 2 });

  // Bob's home: the feed is the main column, newest first.
  const b = await openAs(browser, testInfo, bob);
  await b.goto('/');
  const feed = b.getByTestId('feed-list');
  await expect(feed.getByTestId('feed-item').first()).toContainText(`Alice Ames created Friday pickup ${id}`);
  await expect(feed.getByTestId('spots-left').first()).toContainText('12 skater spots left');

  // Alice posts from her browser, with a link and some markup.
  const a = await openAs(browser, testInfo, alice);
  await a.goto('/');
  const text = `Ice is fresh tonight ${id} — sign up at https://rinkside.example/ice <b>now</b>`;
  await expect(a.getByTestId('composer-submit')).toBeDisabled();
  await a.getByLabel('New post').fill(text);
  await a.getByTestId('composer-submit').click();
  await expect(a.getByLabel('New post')).toHaveValue('');
  await expect(a.getByTestId('posted-note')).toBeVisible();

  // Bob, at the top of his page, sees it slide in without reloading.
  const top = feed.getByTestId('feed-item').first();
  await expect(top).toContainText('Alice Ames posted');
  await expect(top.getByTestId('post-text')).toHaveText(text);
  await expect(top.getByRole('link', { name: 'https://rinkside.example/ice' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(top.locator('b')).toHaveCount(0);

  // Alice joins her team's roster; Bob sees it live.
  await create(page, alice, `/api/v1/rosters/${roster.id}/players`, { userId: alice.id });
  await expect(feed.getByTestId('feed-item').first()).toContainText(`Alice Ames joined Ice Owls ${id}`);

  // Carol joins the same roster: one item, aggregated, not two.
  await create(page, alice, `/api/v1/rosters/${roster.id}/players`, { userId: carol.id });
  await expect(feed.getByTestId('feed-item').first()).toContainText(`Carol Cole and Alice Ames joined Ice Owls ${id}`);
  await expect(feed.locator('[data-type="USER_JOINED_TEAM"]')).toHaveCount(1);
  await b.screenshot({ path: shot(testInfo, 'feed-home'), fullPage: true, animations: 'disabled' });

  // Scrolled down, the next push waits behind the pill.
  await b.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await b.waitForFunction(() => window.scrollY > 200);
  await create(page, alice, '/api/v1/posts', { content: `While you were scrolling ${id}` });
  const pill = b.getByTestId('new-items-pill');
  await expect(pill).toHaveText(/1 new/);
  await expect(feed).not.toContainText(`While you were scrolling ${id}`);
  await b.screenshot({ path: shot(testInfo, 'feed-pill'), animations: 'disabled' });
  await pill.click();
  await expect(pill).toBeHidden();
  await expect(feed.getByTestId('feed-item').first()).toContainText(`While you were scrolling ${id}`);
  await b.waitForFunction(() => window.scrollY < 10);

  // Alice's profile lists her posts, and she can edit one.
  await a.goto(`/users/${alice.id}`);
  const posts = a.getByTestId('user-posts');
  await expect(posts.getByTestId('post-row').first()).toContainText(`While you were scrolling ${id}`);
  await expect(posts.getByTestId('post-row')).toHaveCount(6);
  await a.screenshot({ path: shot(testInfo, 'profile-posts'), fullPage: true });
  const row = posts.getByTestId('post-row').first();
  await row.getByRole('button', { name: 'Edit post' }).click();
  await row.getByRole('textbox', { name: 'Edit post' }).fill(`Edited ${id}`);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText(`Edited ${id}`);
  await expect(row).toContainText('edited');

  // Bob's own profile shows the composer only to him, and no edit buttons on Alice's posts.
  await b.goto(`/users/${alice.id}`);
  await expect(b.getByTestId('user-posts').getByTestId('post-row').first()).toBeVisible();
  await expect(b.getByTestId('composer')).toHaveCount(0);
  await expect(b.getByRole('button', { name: 'Edit post' })).toHaveCount(0);
});
