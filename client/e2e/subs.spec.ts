import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix } from './people';

/** `datetime-local` value for an instant, in the browser's (this machine's) zone. */
function localInput(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A start a couple of hours ahead, on a quarter hour. */
function soonStart(): Date {
  const d = new Date(Date.now() + 2 * 3_600_000);
  d.setMinutes(Math.ceil(d.getMinutes() / 15) * 15, 0, 0);
  return d;
}

async function signIn(page: Page, token: string) {
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), token);
}

test('a captain short a goalie calls for one; an available goalie sees it live and takes the spot', async ({ page, browser }, testInfo) => {
  // Three browsers and eight full-page screenshots: on a busy two-core box (a phone's are 2.6x) that passes a minute.
  test.setTimeout(150_000);
  const id = suffix(testInfo);
  const captain = await createPerson(page, `cap${id}`, 'Cara', 'Captain');
  const goalie = await createPerson(page, `gol${id}`, 'Gabe', 'Goalie');
  const rinkName = `Northside Ice ${id}`;
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const rink = await create<{ id: string }>(page, captain, '/api/v1/facilities', { name: rinkName, timezone: zone });
  const start = soonStart();

  // The goalie says he is free tonight, on the Subs & teams page.
  const g = await openAs(browser, testInfo, goalie);
  await g.goto('/');
  // From the main navigation (the top bar on a desktop, the bottom bar on a phone).
  await g.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Subs/ }).filter({ visible: true }).first().click();
  await expect(g).toHaveURL(/\/subs$/);
  await expect(g.getByRole('heading', { name: 'Subs & teams' })).toBeVisible();
  await expect(g.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(g.getByTestId('no-statuses')).toBeVisible();
  await expect(g.getByTestId('no-matches')).toBeVisible();
  await g.getByTestId('new-status').click();
  await expect(g.getByTestId('status-type-AVAILABLE_TO_SUB')).toHaveAttribute('aria-checked', 'true');
  await g.getByTestId('pos-GOALIE').click();
  await g.getByTestId('status-message').fill('Full gear, any rink in town.');
  // Until well after tonight's puck drop (the default, 23:59, may come first late in the evening).
  await g.getByTestId('status-until').fill(localInput(new Date(start.getTime() + 4 * 3_600_000)));
  await g.screenshot({ path: shot(testInfo, 'subs-post-form'), fullPage: true });
  await g.getByTestId('status-submit').click();
  const mine = g.getByTestId('my-statuses').locator('[data-testid^="my-status-"]');
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Available to sub');
  await expect(mine).toContainText('Goalie');
  await expect(g.getByTestId('board-list')).toContainText('Gabe Goalie');
  await expect(g.getByTestId('no-matches')).toBeVisible();

  // The captain books a late pickup at her rink: one skater (herself), one goalie.
  await signIn(page, captain.token);
  await page.goto('/events/new');
  const title = `Late pickup ${id}`;
  await page.getByTestId('type-PRACTICE').click();
  await page.getByTestId('event-title').fill(title);
  await page.getByTestId('event-start').fill(localInput(start));
  await page.getByTestId('event-max-skaters').fill('1');
  await page.getByTestId('event-max-goalies').fill('1');
  await page.getByTestId('event-facility').click();
  await page.getByTestId('event-facility').fill(rinkName);
  await page.getByRole('option', { name: new RegExp(rinkName) }).click();
  await page.getByTestId('save-event').click();
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const eventPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('rsvp-in')).toBeEnabled();
  await page.getByTestId('rsvp-in').click();
  await expect(page.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(page.getByTestId('event-counts')).toHaveText('1/1 skater · 0/1 goalie');
  await expect(page.getByTestId('spots-open-text')).toHaveText('1 goalie spot open');

  // The rink's lobby screen, signed out, lists tonight's open goalie spot.
  const lobby = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1280, height: 720 } });
  const l = await lobby.newPage();
  await l.goto(`/display/facility/${rink.id}/subs`);
  await expect(l.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
  const lobbyRow = l.locator('[data-testid^="lobby-spot-"]', { hasText: title });
  await expect(lobbyRow.getByTestId('lobby-goalies')).toHaveText('1goalie');

  // The open spot shows up in the goalie's matches by itself: no reload.
  await g.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
  const match = g.getByTestId('matches-list').locator('[data-testid^="match-"]', { hasText: title });
  await expect(match).toBeVisible();
  await expect(match.getByTestId('open-spots')).toHaveText('1 goalie spot open');
  await expect(match).toContainText(rinkName);

  // She calls for a goalie from the event page.
  await expect(page.getByTestId('find-subs')).toHaveText('Find a goalie');
  await page.getByTestId('find-subs').click();
  await expect(page.getByTestId('subs-call-posted')).toHaveText('Looking for a goalie — posted');
  await page.screenshot({ path: shot(testInfo, 'subs-event-call-posted'), fullPage: true });
  await l.screenshot({ path: shot(testInfo, 'subs-lobby-open') });

  // Her call is on the board too, with the event and what is open.
  const call = g.getByTestId('board-list').locator('[data-testid^="status-"]', { hasText: title });
  await g.getByTestId('board-type-LOOKING_FOR_SUBS').click();
  await expect(call).toContainText('Looking for subs');
  await expect(call).toContainText('1 goalie spot open');
  await g.getByTestId('board-type-all').click();
  await expect(call).toBeVisible();
  await expect(g.getByTestId('board-list').locator('[data-testid^="status-"]', { hasText: 'Gabe Goalie' })).toBeVisible();
  await g.screenshot({ path: shot(testInfo, 'subs-page-match'), fullPage: true });

  // He takes it.
  await match.getByTestId('take-spot').click();
  await expect(g.getByTestId('spot-outcome-title')).toHaveText("You're in");
  expect(await g.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
  await expect(g.getByTestId('take-spot')).toHaveCount(0);
  // Taking the spot ended his "available to sub".
  await expect(g.getByTestId('no-statuses')).toBeVisible();
  await g.screenshot({ path: shot(testInfo, 'subs-page-taken'), fullPage: true });

  // The captain's page fills the goalie place without a reload; the open line and the call go.
  await expect(page.getByTestId('event-counts')).toHaveText('1/1 skater · 1/1 goalie');
  await expect(page.getByTestId('spots-open')).toHaveCount(0);
  await expect(page.getByTestId(`attendee-${goalie.id}`)).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${eventPath}$`));
  await page.screenshot({ path: shot(testInfo, 'subs-event-filled'), fullPage: true });

  // And the lobby screen has nothing left to offer.
  await expect(l.getByTestId('lobby-empty')).toBeVisible();
  await l.screenshot({ path: shot(testInfo, 'subs-lobby-full') });

  await g.context().close();
  await lobby.close();
});

test("the rink lobby shows tonight's open spots by role and fills them live, signed out", async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const host = await createPerson(page, `rnk${id}`, 'Rita', 'Rink');
  const pat = await createPerson(page, `pat${id}`, 'Pat', 'Player');
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const rink = await create<{ id: string }>(page, host, '/api/v1/facilities', { name: `Lobby Arena ${id}`, timezone: zone });
  const first = soonStart();
  const second = new Date(first.getTime() + 3_600_000);
  // Short a goalie (the host skates), and short two skaters (no goalies taken).
  const goalieGame = await create<{ id: string }>(page, host, '/api/v1/events', { title: `Early skate ${id}`, startDate: first.toISOString(), eventType: 'PRACTICE', facilityId: rink.id, maxSkaters: 1, maxGoalies: 1 });
  const rsvp = async (who: typeof host, eventId: string, position: string) => {
    const res = await page.request.put(`/api/v1/events/${eventId}/rsvp`, { headers: auth(who), data: { action: 'ATTENDING', position } });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  await rsvp(host, goalieGame.id, 'CENTER');
  const skaterGame = await create<{ id: string }>(page, host, '/api/v1/events', { title: `Late skate ${id}`, startDate: second.toISOString(), eventType: 'PRACTICE', facilityId: rink.id, maxSkaters: 2, maxGoalies: 0 });

  // The lobby screen: no sign-in, the numbers big, soonest first.
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`/display/facility/${rink.id}/subs`);
  await expect(page.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('lobby-display')).toContainText(`Lobby Arena ${id}`);
  const rows = page.getByTestId('lobby-spots').locator('[data-testid^="lobby-spot-"]');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(`Early skate ${id}`);
  await expect(rows.nth(0).getByTestId('lobby-goalies')).toHaveText('1goalie');
  await expect(rows.nth(0).getByTestId('lobby-skaters')).toHaveCount(0);
  await expect(rows.nth(1).getByTestId('lobby-skaters')).toHaveText('2skaters');
  await page.screenshot({ path: shot(testInfo, 'lobby-display') });

  // Pat signs up for both from his phone; the screen follows without a reload.
  await rsvp(pat, skaterGame.id, 'LEFT_WING');
  await expect(page.getByTestId(`lobby-spot-${skaterGame.id}`).getByTestId('lobby-skaters')).toHaveText('1skater');
  await rsvp(pat, goalieGame.id, 'GOALIE');
  await expect(page.getByTestId(`lobby-spot-${goalieGame.id}`)).toHaveCount(0);
  await expect(rows).toHaveCount(1);
});
