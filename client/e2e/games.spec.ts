import path from 'node:path';
import { expect, test, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';

/** How fast a goal must reach the arena display. */
const DISPLAY_WITHIN_MS = 1000;

/** A short unique suffix so each project and run gets its own people. */
function suffix(testInfo: TestInfo): string {
  return `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
}

interface Person {
  id: string;
  token: string;
}

async function call<T>(req: APIRequestContext, method: 'get' | 'post' | 'put' | 'patch', url: string, token: string | null, data?: unknown): Promise<T> {
  const res = await req[method](`/api/v1${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, data });
  expect(res.ok(), `${method.toUpperCase()} ${url} → ${res.status()} ${await res.text()}`).toBeTruthy();
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** An onboarded dev user, created through the API. */
async function createPerson(req: APIRequestContext, username: string, firstName: string, lastName: string): Promise<Person> {
  const { token, user } = await call<{ token: string; user: { id: string } }>(req, 'post', '/dev/token', null, { clerkId: `dev_${username}`, username, firstName, lastName });
  await call(req, 'post', '/me/legal', token, { legalVersion: '2026-11' });
  await call(req, 'patch', '/me', token, { profileTypes: ['PLAYER'], onboardingComplete: true });
  return { id: user.id, token };
}

interface Rink {
  seasonId: string;
  gameId: string;
  home: { rosterId: string; name: string; players: Array<Person & { jersey: number; name: string }> };
  away: { rosterId: string; name: string; players: Array<Person & { jersey: number; name: string }> };
}

/** Facility, season, two teams with a roster each (three numbered players), and a game now. */
async function buildRink(req: APIRequestContext, owner: Person, id: string): Promise<Rink> {
  const facility = await call<{ id: string }>(req, 'post', '/facilities', owner.token, { name: `Lakeside Ice ${id}`, timezone: 'America/Chicago' });
  const day = 24 * 3600 * 1000;
  const season = await call<{ id: string }>(req, 'post', `/facilities/${facility.id}/seasons`, owner.token, {
    name: `Fall League ${id}`,
    startDate: new Date(Date.now() - 30 * day).toISOString(),
    endDate: new Date(Date.now() + 90 * day).toISOString(),
    isActive: true,
  });
  const side = async (teamName: string, people: Array<[string, string, number]>) => {
    const team = await call<{ id: string }>(req, 'post', '/teams', owner.token, { name: `${teamName} ${id}`, facilityId: facility.id });
    const roster = await call<{ id: string; name: string }>(req, 'post', '/rosters', owner.token, { teamId: team.id, seasonId: season.id, name: `${teamName} ${id}` });
    const players = [];
    for (const [first, last, jersey] of people) {
      const p = await createPerson(req, `${first.toLowerCase()}${id}`, first, last);
      await call(req, 'post', `/rosters/${roster.id}/players`, owner.token, { userId: p.id, jerseyNumber: jersey, position: 'CENTER' });
      players.push({ ...p, jersey, name: `${first} ${last}` });
    }
    return { rosterId: roster.id, name: roster.name, players };
  };
  const home = await side('Blades', [
    ['Alice', 'Ames', 9],
    ['Bruno', 'Berg', 12],
    ['Cara', 'Cole', 27],
  ]);
  const away = await side('Hawks', [
    ['Mia', 'Moss', 4],
    ['Ned', 'North', 19],
    ['Ola', 'Ortiz', 71],
  ]);
  const game = await call<{ id: string }>(req, 'post', '/games', owner.token, {
    homeRosterId: home.rosterId,
    awayRosterId: away.rosterId,
    seasonId: season.id,
    scheduledAt: new Date(Date.now() + 10 * 60 * 1000).toISOString(),
  });
  return { seasonId: season.id, gameId: game.id, home, away };
}

/** A browser context of its own (own storage, own socket), signed in as `person` or signed out. */
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

test('a score keeper records goals and a signed-out arena display shows each within a second', async ({ page, browser }, testInfo) => {
  // Four browser contexts and a 1080p display on a shared machine: a long story, not a slow app.
  test.setTimeout(150_000);
  const id = suffix(testInfo);
  const owner = await createPerson(page.request, `own${id}`, 'Olga', 'Owner');
  const keeper = await createPerson(page.request, `kee${id}`, 'Kim', 'Keeper');
  const stranger = await createPerson(page.request, `str${id}`, 'Sam', 'Stranger');
  const rink = await buildRink(page.request, owner, id);
  await call(page.request, 'put', `/games/${rink.gameId}/scorekeepers/${keeper.id}`, owner.token);
  const [alice, bruno, cara] = rink.home.players;
  const [mia] = rink.away.players;
  if (!alice || !bruno || !cara || !mia) throw new Error('players missing');

  // Someone who is not a score keeper is told so, clearly.
  const nosy = await openAs(browser, testInfo, stranger);
  await nosy.goto(`/games/${rink.gameId}/score`);
  await expect(nosy.getByTestId('not-a-scorer')).toContainText("You can't keep score for this game");
  await expect(nosy.getByTestId('goal-home')).toHaveCount(0);
  await nosy.context().close();

  // The arena display: a separate, signed-out browser at TV size. No sign-in screen.
  const display = await openAs(browser, testInfo, null, { width: 1920, height: 1080 });
  await display.goto(`/display/game/${rink.gameId}`);
  await expect(display.getByTestId('dev-sign-in')).toHaveCount(0);
  await expect(display.getByTestId('display-connection')).toHaveAttribute('data-state', 'live');
  await expect(display.getByTestId('display-home-name')).toHaveText(rink.home.name);
  await expect(display.getByTestId('display-away-name')).toHaveText(rink.away.name);
  // Before puck drop: the pill says when it starts (not LIVE), and each score is a dimmed 0.
  await expect(display.getByTestId('display-game-state')).toHaveText(/^Starts /);
  await expect(display.getByTestId('display-connection')).toHaveText('');
  await expect(display.getByTestId('display-home-score')).toHaveText('0');
  await expect(display.getByTestId('display-away-score')).toHaveClass(/dg__score--pending/);
  await display.screenshot({ path: shot(testInfo, 'display-before-puck-drop') });

  // The score keeper, on their own device, at the project's size (desktop or phone).
  const scorer = await openAs(browser, testInfo, keeper);
  await scorer.goto(`/games/${rink.gameId}`);
  await scorer.getByTestId('open-console').click();
  await expect(scorer).toHaveURL(new RegExp(`/games/${rink.gameId}/score$`));
  await expect(scorer.getByTestId('console-connection')).toHaveAttribute('data-state', 'live');
  await scorer.getByTestId('start-game').click();
  await expect(display.getByTestId('display-home-score')).toHaveText('0', { timeout: DISPLAY_WITHIN_MS });
  await expect(display.getByTestId('display-state')).toContainText('1st');
  await expect(display.getByTestId('display-game-state')).toHaveText('Live');
  await expect(display.getByTestId('display-home-score')).not.toHaveClass(/dg__score--pending/);

  // Goal, home: scorer, then two assists; the second assist sends it.
  await scorer.getByTestId('goal-home').click();
  await scorer.getByTestId(`pick-${alice.id}`).click();
  await scorer.getByTestId(`pick-${bruno.id}`).click();
  await scorer.getByTestId(`pick-${cara.id}`).click();
  await expect(display.getByTestId('display-home-score')).toHaveText('1', { timeout: DISPLAY_WITHIN_MS });
  await expect(scorer.getByTestId('console-home-score')).toHaveText('1');
  await expect(display.getByTestId('display-last-goal')).toContainText(`#9 ${alice.name}`);
  await expect(display.getByTestId('display-last-goal')).toContainText(`#12 ${bruno.name}, #27 ${cara.name}`);

  // Goal, away, unassisted.
  await scorer.getByTestId('goal-away').click();
  await scorer.getByTestId(`pick-${mia.id}`).click();
  await scorer.getByTestId('unassisted').click();
  await expect(display.getByTestId('display-away-score')).toHaveText('1', { timeout: DISPLAY_WITHIN_MS });

  // A penalty and the end of the first period.
  await scorer.getByTestId('penalty-away').click();
  await scorer.getByTestId(`pick-${mia.id}`).click();
  await scorer.getByTestId('penalty-MINOR').click();
  await expect(display.getByTestId('display-ticker')).toContainText(`#4 ${mia.name}`, { timeout: DISPLAY_WITHIN_MS });
  await scorer.getByTestId('end-period').click();
  await expect(display.getByTestId('display-state')).toContainText('2nd', { timeout: DISPLAY_WITHIN_MS });

  // Goal, home, in the 2nd, one assist.
  await scorer.getByTestId('goal-home').click();
  await scorer.getByTestId(`pick-${cara.id}`).click();
  await scorer.getByTestId(`pick-${alice.id}`).click();
  await scorer.getByTestId('send-goal').click();
  await expect(display.getByTestId('display-home-score')).toHaveText('2', { timeout: DISPLAY_WITHIN_MS });
  await expect(display.getByTestId('display-state')).toContainText('2nd');

  // Undo is one tap and the display follows it too.
  await expect(scorer.getByTestId('undo')).toHaveAccessibleName(`Undo Goal · #27 ${cara.name}`);
  await scorer.getByTestId('undo').click();
  await expect(display.getByTestId('display-home-score')).toHaveText('1', { timeout: DISPLAY_WITHIN_MS });
  await scorer.getByTestId('goal-home').click();
  await scorer.getByTestId(`pick-${cara.id}`).click();
  await scorer.getByTestId('unassisted').click();
  await expect(display.getByTestId('display-home-score')).toHaveText('2', { timeout: DISPLAY_WITHIN_MS });

  await scorer.screenshot({ path: shot(testInfo, 'scorekeeper-console') });
  const displayShot = shot(testInfo, 'display-game');
  await display.screenshot({ path: displayShot });
  await testInfo.attach('arena display', { path: displayShot, contentType: 'image/png' });

  // The display never shows a stale score without saying so.
  await display.context().setOffline(true);
  await expect(display.getByTestId('display-connection')).toHaveAttribute('data-state', 'reconnecting', { timeout: 8000 });
  await expect(display.getByTestId('display-connection')).toContainText('Scores as of');
  // The lost connection is its own marker; the game is still LIVE.
  await expect(display.getByTestId('display-game-state')).toHaveText('Live');
  await display.context().setOffline(false);
  await expect(display.getByTestId('display-connection')).toHaveAttribute('data-state', 'live', { timeout: 15_000 });
  await expect(display.getByTestId('display-home-score')).toHaveText('2');

  // FINAL asks first; then the season's standings have the result, live on the season display.
  const seasonDisplay = await openAs(browser, testInfo, null, { width: 1920, height: 1080 });
  await seasonDisplay.goto(`/display/season/${rink.seasonId}`);
  await expect(seasonDisplay.getByTestId(`display-standing-${rink.home.rosterId}`)).toBeVisible();
  await scorer.getByTestId('final').click();
  await expect(scorer.getByTestId('final-confirm')).toContainText(`${rink.home.name} 2 – 1 ${rink.away.name}`);
  await scorer.getByTestId('final-confirm-yes').click();
  await expect(scorer.getByTestId('console-final')).toBeVisible();
  await expect(display.getByTestId('display-state')).toContainText('Final', { timeout: DISPLAY_WITHIN_MS });
  // FINAL at 2–1 after the 1st: regulation, and the pill says Final, not LIVE.
  await expect(display.getByTestId('display-state')).not.toContainText('Overtime');
  await expect(display.getByTestId('display-game-state')).toHaveText('Final');
  await display.screenshot({ path: shot(testInfo, 'display-final') });
  const winner = seasonDisplay.getByTestId(`display-standing-${rink.home.rosterId}`);
  await expect(winner).toContainText('+1');
  await expect(winner.locator('td').last()).toHaveText('2');
  await seasonDisplay.screenshot({ path: shot(testInfo, 'display-season') });

  // The live game page tells the story.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), owner.token);
  await page.goto(`/games/${rink.gameId}`);
  await expect(page.getByTestId('game-state')).toHaveText('Final');
  await expect(page.getByTestId('home-score')).toHaveText('2');
  await expect(page.getByTestId('play-by-play')).toContainText(`#9 ${alice.name}`);
  await expect(page.getByTestId('play-by-play')).toContainText(`Assists: #12 ${bruno.name}, #27 ${cara.name}`);
  await page.screenshot({ path: shot(testInfo, 'game-page') });

  for (const p of [display, scorer, seasonDisplay]) await p.context().close();
});

test('END 3RD at 1–0 then FINAL stays regulation: the console offers FINAL, not END OT', async ({ page, browser }, testInfo) => {
  test.setTimeout(90_000);
  const id = suffix(testInfo);
  const owner = await createPerson(page.request, `reg${id}`, 'Rita', 'Regulation');
  const rink = await buildRink(page.request, owner, id);
  const act = (body: unknown) => call(page.request, 'post', `/games/${rink.gameId}/actions`, owner.token, body);
  await act({ type: 'START' });
  await act({ type: 'GOAL', rosterId: rink.home.rosterId });
  await act({ type: 'END_PERIOD' });
  await act({ type: 'END_PERIOD' });

  const display = await openAs(browser, testInfo, null, { width: 1920, height: 1080 });
  await display.goto(`/display/game/${rink.gameId}`);
  const scorer = await openAs(browser, testInfo, owner);
  await scorer.goto(`/games/${rink.gameId}/score`);
  await expect(scorer.getByTestId('end-period')).toContainText('End 3rd');
  await scorer.getByTestId('end-period').click();
  await expect(scorer.getByTestId('period-over')).toContainText('Not tied: no overtime');
  await expect(scorer.getByText(/End OT/i)).toHaveCount(0);
  await expect(scorer.getByTestId('console-state')).toHaveText('End of 3rd');
  await scorer.screenshot({ path: shot(testInfo, 'console-end-of-regulation') });
  await scorer.getByTestId('final').click();
  await scorer.getByTestId('final-confirm-yes').click();
  await expect(scorer.getByTestId('console-state')).toHaveText('Final');
  await expect(display.getByTestId('display-state')).toHaveText('Final', { timeout: DISPLAY_WITHIN_MS * 5 });
  await expect(display.getByTestId('display-game-state')).toHaveText('Final');
  for (const p of [display, scorer]) await p.context().close();
});

test('a league manager schedules a game, reschedules it, and sees standings and leaders', async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const owner = await createPerson(page.request, `mgr${id}`, 'Max', 'Manager');
  const rink = await buildRink(page.request, owner, id);
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), owner.token);
  await page.goto(`/seasons/${rink.seasonId}/games`);
  await expect(page.getByTestId(`schedule-${rink.gameId}`)).toBeVisible();

  await page.getByTestId('open-schedule-form').click();
  await page.getByTestId('schedule-home').selectOption(rink.away.rosterId);
  await page.getByTestId('schedule-away').selectOption(rink.home.rosterId);
  await page.getByTestId('schedule-submit').click();
  await expect(page.getByText(`${rink.away.name} vs ${rink.home.name} is on the schedule.`)).toBeVisible();
  await expect(page.locator('[data-testid^="schedule-"][class*="sched-row"]')).toHaveCount(2);

  await page.getByTestId(`edit-game-${rink.gameId}`).click();
  await page.getByTestId('edit-game-status').selectOption('POSTPONED');
  await page.getByTestId('edit-game-save').click();
  await expect(page.getByTestId(`schedule-${rink.gameId}`)).toContainText('Postponed');

  await expect(page.getByTestId('standings')).toContainText(rink.home.name);
  await expect(page.getByTestId('leaders')).toContainText('Alice Ames');
  await page.screenshot({ path: shot(testInfo, 'season-games'), fullPage: true });
});
