// What the walkthrough of issue 18 found (docs/walkthrough.md), in a
// browser: the arena display fits a phone (long names whole, the ticker
// below the score, never over it), and people are found by @username.

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, shot, suffix, type Person } from './people';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** A live game between two teams with long names, one goal with a scorer and two assists. */
async function liveGame(page: Page, owner: Person, id: string): Promise<string> {
  const facility = await create<{ id: string }>(page, owner, '/api/v1/facilities', { name: `Lakeside Ice ${id}`, timezone: 'America/Chicago' });
  const day = 24 * 3600 * 1000;
  const season = await create<{ id: string }>(page, owner, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Fall League ${id}`,
    startDate: new Date(Date.now() - 30 * day).toISOString(),
    endDate: new Date(Date.now() + 90 * day).toISOString(),
  });
  const side = async (name: string, people: Array<[string, string, number]>) => {
    const team = await create<{ id: string }>(page, owner, '/api/v1/teams', { name: `${name} ${id}`, facilityId: facility.id });
    const roster = await create<{ id: string }>(page, owner, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name: `${name} ${id}` });
    const ids: string[] = [];
    for (const [first, last, jersey] of people) {
      const p = await createPerson(page, `${first.toLowerCase()}${id}`, first, last);
      await create(page, owner, `/api/v1/rosters/${roster.id}/players`, { userId: p.id, jerseyNumber: jersey, position: 'CENTER' });
      ids.push(p.id);
    }
    return { rosterId: roster.id, ids };
  };
  const home = await side('Fighting Flamingos of Fort McMurray', [
    ['Alexandrina', 'Vandersloot-Hamilton', 9],
    ['Bartholomew', 'Castellanos', 12],
    ['Cassiopeia', 'Oyelaran-Smith', 27],
  ]);
  const away = await side('Hawks', [['Mia', 'Moss', 4]]);
  const game = await create<{ id: string }>(page, owner, '/api/v1/games', {
    homeRosterId: home.rosterId,
    awayRosterId: away.rosterId,
    seasonId: season.id,
    scheduledAt: new Date(Date.now() + 10 * 60 * 1000).toISOString(),
  });
  const act = async (data: unknown) => {
    const res = await page.request.post(`/api/v1/games/${game.id}/actions`, { headers: auth(owner), data });
    expect(res.ok(), await res.text()).toBeTruthy();
  };
  await act({ type: 'START' });
  await act({ type: 'GOAL', rosterId: home.rosterId, scorerId: home.ids[0], assistIds: [home.ids[1], home.ids[2]] });
  await act({ type: 'PENALTY', rosterId: away.rosterId, playerId: away.ids[0], minutes: 2 });
  return game.id;
}

test('the arena display works on a phone: whole names, the ticker under the score', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const owner = await createPerson(page, `rink${id}`, 'Rita', 'Rinkowner');
  const gameId = await liveGame(page, owner, id);

  for (const [label, viewport] of [
    ['portrait', { width: 412, height: 915 }],
    ['landscape', { width: 915, height: 412 }],
    ['small', { width: 360, height: 640 }],
  ] as const) {
    const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    const display = await context.newPage();
    await display.goto(`/display/game/${gameId}`);
    await expect(display.getByTestId('display-home-score')).toHaveText('1');
    await expect(display.getByTestId('display-last-goal')).toContainText('Vandersloot-Hamilton');
    await display.screenshot({ path: shot(testInfo, `display-phone-${label}`) });

    // Every name is shown whole (a line clamp leaves the hidden lines' boxes
    // below the element's), and nothing leaves the screen.
    for (const side of ['home', 'away']) {
      const cut = await display.getByTestId(`display-${side}-name`).evaluate((el) => {
        const range = document.createRange();
        range.selectNodeContents(el);
        const lines = Array.from(range.getClientRects());
        const box = el.getBoundingClientRect();
        return lines.some((r) => r.bottom > box.bottom + 4 || r.right > box.right + 4);
      });
      expect(cut, `${label}: the ${side} name is cut`).toBe(false);
    }
    // The board is not cut at the top either (its period box is on screen).
    const header = await display.locator('.display__top').boundingBox();
    const state = await display.getByTestId('display-state').boundingBox();
    expect(state!.y, `${label}: the period is under the header`).toBeGreaterThanOrEqual(header!.y + header!.height - 1);
    const ticker = await display.getByTestId('display-ticker').boundingBox();
    expect(ticker).not.toBeNull();
    for (const el of ['display-home-score', 'display-away-score', 'display-home-name', 'display-away-name', 'display-state']) {
      const box = await display.getByTestId(el).boundingBox();
      expect(box, el).not.toBeNull();
      if (!box || !ticker) continue;
      expect(overlaps(box, ticker), `${label}: the ticker is over ${el}`).toBe(false);
      expect(box.y + box.height, `${label}: ${el} below the screen`).toBeLessThanOrEqual(viewport.height + 1);
      expect(box.x + box.width, `${label}: ${el} past the right edge`).toBeLessThanOrEqual(viewport.width + 1);
    }
    expect(ticker!.y + ticker!.height).toBeLessThanOrEqual(viewport.height + 1);
    await context.close();
  }
});

test('people are found by @username and by position', async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const me = await createPerson(page, `viewer${id}`, 'Vera', 'Viewer');
  const sam = await createPerson(page, `sam_goalie_${id}`, 'Sam', 'Stone');
  const res = await page.request.post('/api/v1/me/positions', { headers: auth(sam), data: { position: 'GOALIE', skillLevel: 'ADVANCED', isPreferred: true } });
  expect(res.status()).toBe(201);
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), me.token);
  await page.goto('/people');
  await page.getByTestId('people-search').fill(`@sam_goalie_${id}`);
  await expect(page.getByTestId('people-results')).toContainText('Sam Stone');
  await page.getByTestId('people-search').fill(id);
  await page.getByTestId('people-position').selectOption('GOALIE');
  await page.getByTestId('people-level').selectOption('ADVANCED');
  await expect(page.getByTestId('people-results')).toContainText('Sam Stone');
  await expect(page.getByTestId('people-results')).not.toContainText('Vera Viewer');
  await page.screenshot({ path: shot(testInfo, 'people-goalies') });
});
