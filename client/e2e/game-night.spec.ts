// Game night end to end (docs/game-night.md): the score keeper runs the
// clock from the console, and two arena displays of the same game — two
// browsers, each with its own socket and its own time sync — show the
// same time to within 100 ms while it runs and exactly the same once it
// stops. Then the console's flows: a shot, a penalty that puts the other
// side on the power play, and the power-play goal that ends it.

import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';
import { createPerson, suffix, type Person } from './people';

/** How far apart two screens' clocks may be while it runs. */
const AGREE_WITHIN_MS = 100;

async function call<T>(req: APIRequestContext, method: 'get' | 'post' | 'put', url: string, token: string | null, data?: unknown): Promise<T> {
  const res = await req[method](`/api/v1${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, data });
  expect(res.ok(), `${method.toUpperCase()} ${url} → ${res.status()} ${await res.text()}`).toBeTruthy();
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

interface Side {
  rosterId: string;
  name: string;
  players: Array<Person & { jersey: number }>;
}

/** Facility, season (15-minute periods), two rosters with a goalie and two skaters each, a game starting soon. */
async function buildGame(req: APIRequestContext, owner: Person, id: string): Promise<{ gameId: string; home: Side; away: Side }> {
  const facility = await call<{ id: string }>(req, 'post', '/facilities', owner.token, { name: `Night Ice ${id}`, timezone: 'America/Chicago' });
  const day = 24 * 3600 * 1000;
  const season = await call<{ id: string }>(req, 'post', `/facilities/${facility.id}/seasons`, owner.token, {
    name: `Night League ${id}`,
    startDate: new Date(Date.now() - day).toISOString(),
    endDate: new Date(Date.now() + 60 * day).toISOString(),
    isActive: true,
    periodMinutes: 15,
  });
  const side = async (teamName: string, people: Array<[string, string, number, string]>): Promise<Side> => {
    const team = await call<{ id: string }>(req, 'post', '/teams', owner.token, { name: `${teamName} ${id}`, facilityId: facility.id });
    const roster = await call<{ id: string; name: string }>(req, 'post', '/rosters', owner.token, { teamId: team.id, seasonId: season.id, name: `${teamName} ${id}` });
    const players = [];
    for (const [first, last, jersey, position] of people) {
      const p = await createPerson(req, `${first.toLowerCase()}${id}`, first, last);
      await call(req, 'post', `/rosters/${roster.id}/players`, owner.token, { userId: p.id, jerseyNumber: jersey, position });
      players.push({ ...p, jersey });
    }
    return { rosterId: roster.id, name: roster.name, players };
  };
  const home = await side('Blades', [
    ['Gil', 'Gray', 30, 'GOALIE'],
    ['Alice', 'Ames', 9, 'CENTER'],
    ['Bruno', 'Berg', 12, 'LEFT_DEFENSE'],
  ]);
  const away = await side('Hawks', [
    ['Hal', 'Hart', 1, 'GOALIE'],
    ['Mia', 'Moss', 4, 'CENTER'],
    ['Ned', 'North', 19, 'LEFT_WING'],
  ]);
  const game = await call<{ id: string }>(req, 'post', '/games', owner.token, {
    homeRosterId: home.rosterId,
    awayRosterId: away.rosterId,
    seasonId: season.id,
    scheduledAt: new Date(Date.now() + 5 * 60 * 1000).toISOString(),
  });
  return { gameId: game.id, home, away };
}

async function openAs(browser: Browser, testInfo: TestInfo, person: Person | null, viewport?: { width: number; height: number }): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext(
    viewport
      ? { baseURL: use.baseURL, viewport }
      : { baseURL: use.baseURL, viewport: use.viewport, deviceScaleFactor: use.deviceScaleFactor, isMobile: use.isMobile, hasTouch: use.hasTouch, userAgent: use.userAgent },
  );
  if (person) await context.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), person.token);
  return context.newPage();
}

const shot = (testInfo: TestInfo, name: string) => path.join(testInfo.project.outputDir, `${name}-${testInfo.project.name}.png`);

/** The clock a display shows: the exact ms left and the local instant the frame drew it. */
function readClock(page: Page) {
  return page.getByTestId('display-clock').evaluate((el) => ({
    left: Number(el.getAttribute('data-remaining-ms')),
    at: Number(el.getAttribute('data-sampled-at')),
    running: el.getAttribute('data-running') === 'true',
  }));
}

test('two arena displays of one game agree on the running clock within 100 ms, and exactly once it stops', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const owner = await createPerson(page.request, `gno${id}`, 'Olga', 'Owner');
  const rink = await buildGame(page.request, owner, id);

  const [a, b] = await Promise.all([openAs(browser, testInfo, null, { width: 1920, height: 1080 }), openAs(browser, testInfo, null, { width: 1280, height: 720 })]);
  await Promise.all([a.goto(`/display/game/${rink.gameId}`), b.goto(`/display/game/${rink.gameId}`)]);
  for (const d of [a, b]) await expect(d.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');

  const scorer = await openAs(browser, testInfo, owner);
  await scorer.goto(`/games/${rink.gameId}/score`);
  await scorer.getByTestId('start-game').click();
  await expect(scorer.getByTestId('console-clock')).toHaveText('15:00');
  await scorer.getByTestId('clock-toggle').click();
  await expect(scorer.getByTestId('clock-toggle')).toHaveAttribute('data-action', 'stop');
  for (const d of [a, b]) await expect(d.getByTestId('display-clock')).toHaveAttribute('data-running', 'true');
  // Give each display's time sync its burst of pings.
  await a.waitForTimeout(1000);

  // Sampled in both pages at once, ten times: each reading projected to
  // the same local instant (the machine's clock is shared by both).
  const gaps: number[] = [];
  for (let i = 0; i < 10; i++) {
    const [ra, rb] = await Promise.all([readClock(a), readClock(b)]);
    expect(ra.running && rb.running).toBe(true);
    expect(Math.abs(ra.at - rb.at), 'both pages read within a tick').toBeLessThan(250);
    gaps.push(Math.abs(ra.left + ra.at - (rb.left + rb.at)));
    await a.waitForTimeout(150);
  }
  testInfo.annotations.push({ type: 'clock gaps (ms)', description: gaps.join(', ') });
  expect(Math.max(...gaps)).toBeLessThan(AGREE_WITHIN_MS);
  await a.screenshot({ path: shot(testInfo, 'night-display-1080p') });
  await b.screenshot({ path: shot(testInfo, 'night-display-720p') });

  await scorer.getByTestId('clock-toggle').click();
  await expect(scorer.getByTestId('clock-toggle')).toHaveAttribute('data-action', 'start');
  for (const d of [a, b]) await expect(d.getByTestId('display-clock')).toHaveAttribute('data-running', 'false');
  const [sa, sb] = await Promise.all([readClock(a), readClock(b)]);
  expect(sa.left).toBe(sb.left);
  expect(sa.left).toBeLessThan(15 * 60_000);
  await expect(scorer.getByTestId('console-clock')).toHaveAttribute('data-remaining-ms', String(sa.left));
  for (const p of [a, b, scorer]) await p.context().close();
});

test('the console runs the clock, counts shots, calls a penalty and scores the power-play goal that ends it', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const owner = await createPerson(page.request, `gnc${id}`, 'Olga', 'Owner');
  const rink = await buildGame(page.request, owner, id);
  const [, alice, bruno] = rink.home.players;
  const [, mia] = rink.away.players;
  if (!alice || !bruno || !mia) throw new Error('players missing');

  const display = await openAs(browser, testInfo, null, { width: 1920, height: 1080 });
  await display.goto(`/display/game/${rink.gameId}`);
  const scorer = await openAs(browser, testInfo, owner);
  await scorer.goto(`/games/${rink.gameId}/score`);
  await scorer.getByTestId('start-game').click();

  // START put each side's goalie in net.
  await expect(scorer.getByTestId('goalie-home-name')).toHaveText('#30 Gil Gray');
  await expect(scorer.getByTestId('goalie-away-name')).toHaveText('#1 Hal Hart');

  await scorer.getByTestId('clock-toggle').click();
  await expect(scorer.getByTestId('clock-toggle')).toHaveAttribute('data-action', 'stop');
  await scorer.getByTestId('shot-home').click();
  await expect(scorer.getByTestId('shots-home')).toHaveText('1');
  await expect(display.getByTestId('display-home-shots')).toContainText('1');

  // Whistle: a minor to the Hawks' #4.
  await scorer.getByTestId('clock-toggle').click();
  await expect(scorer.getByTestId('clock-toggle')).toHaveAttribute('data-action', 'start');
  await scorer.getByTestId('penalty-away').click();
  await scorer.getByTestId(`pick-${mia.id}`).click();
  await expect(scorer.getByTestId('penalty-clock')).toHaveValue(/^1[45]:\d\d$/);
  await scorer.getByTestId('penalty-MINOR').click();
  await expect(scorer.getByTestId('strength-line')).toContainText(`${rink.home.name} power play 5v4 · 2:00`);
  await expect(display.getByTestId('display-home-pp')).toHaveText('Power play 5v4');
  await expect(display.getByTestId('display-pen-left')).toHaveText('2:00');

  // Back to play; the power play counts down on both screens.
  await scorer.getByTestId('clock-toggle').click();
  await expect(scorer.getByTestId('strength-line')).toContainText(/power play 5v4 · 1:5\d/, { timeout: 15_000 });
  await scorer.screenshot({ path: shot(testInfo, 'night-console-power-play'), fullPage: true });
  await display.screenshot({ path: shot(testInfo, 'night-display-power-play') });

  // The power-play goal: #9, assisted by #12. It ends the minor.
  await scorer.getByTestId('goal-home').click();
  await scorer.getByTestId(`pick-${alice.id}`).click();
  await scorer.getByTestId(`pick-${bruno.id}`).click();
  await scorer.getByTestId('send-goal').click();
  await expect(scorer.getByTestId('console-home-score')).toHaveText('1');
  const goal = scorer.locator('.pbp__item--goal').first();
  await expect(goal.getByTestId('flag-PP')).toHaveText('PP');
  await expect(goal.getByTestId('entry-clock')).toHaveText(/^1[34]:\d\d$/);
  // Released: nobody in the box, even strength again, on the console and the arena.
  await expect(scorer.getByTestId('strength-line')).toContainText('Even strength 5v5');
  await expect(scorer.locator('.sk-pen')).toHaveCount(0);
  await expect(display.getByTestId('display-home-score')).toHaveText('1');
  await expect(display.getByTestId('display-home-pp')).toHaveCount(0);
  await expect(display.locator('.dg__pen')).toHaveCount(0);
  // A goal is a shot.
  await expect(scorer.getByTestId('shots-home')).toHaveText('2');

  // Pull the Hawks' goalie for an extra attacker, then UNDO it (no confirmation).
  await scorer.getByTestId('pull-away').click();
  await expect(scorer.getByTestId('goalie-away-name')).toHaveText('Empty net');
  await expect(display.getByTestId('display-away-empty-net')).toBeVisible();
  await scorer.getByTestId('undo').click();
  await expect(scorer.getByTestId('goalie-away-name')).toHaveText('#1 Hal Hart');

  // The game page: the scoresheet with clock times and flags, shots by period, goalies.
  const viewer = await openAs(browser, testInfo, owner);
  await viewer.goto(`/games/${rink.gameId}`);
  await expect(viewer.getByTestId('shots-total-home')).toHaveText('2');
  await expect(viewer.getByTestId('goalies-away')).toContainText('Hal Hart');
  await expect(viewer.locator('.pbp__item--goal').first().getByTestId('flag-PP')).toBeVisible();
  await viewer.screenshot({ path: shot(testInfo, 'night-game-page'), fullPage: true });
  for (const p of [display, scorer, viewer]) await p.context().close();
});
