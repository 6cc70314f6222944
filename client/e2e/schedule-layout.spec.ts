// Issue 26: the season and team schedule pages showed no team names at
// 1280 px (the name column collapsed to nothing and the L badge sat on the
// score) and cut them to "Blue Li…" on a phone. My schedule's rows used the
// same `.sched-row` class with another grid, and its stylesheet is always
// loaded (Home's Next up). Both projects run this: 1280 px and a phone.

import { expect, test, type Locator, type Page } from '@playwright/test';
import { createPerson, create, auth, shot, suffix, type Person } from './people';

interface League {
  seasonId: string;
  teamId: string;
  finalId: string;
  nextId: string;
}

/** A season with two rosters, a final the Blue Liners lost 0–1, and a game next week. */
async function league(page: Page, owner: Person, id: string): Promise<League> {
  const day = 24 * 3600 * 1000;
  const facility = await create<{ id: string }>(page, owner, '/api/v1/facilities', { name: `Riverside Ice ${id}`, timezone: 'America/Chicago' });
  const season = await create<{ id: string }>(page, owner, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter League ${id}`,
    startDate: new Date(Date.now() - 30 * day).toISOString(),
    endDate: new Date(Date.now() + 90 * day).toISOString(),
    isActive: true,
  });
  const roster = async (name: string) => {
    const team = await create<{ id: string }>(page, owner, '/api/v1/teams', { name: `${name} ${id}`, facilityId: facility.id });
    const r = await create<{ id: string }>(page, owner, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name });
    return { teamId: team.id, rosterId: r.id };
  };
  const blue = await roster('Blue Liners');
  const owls = await roster('Ice Owls');
  const game = (at: number) =>
    create<{ id: string }>(page, owner, '/api/v1/games', { homeRosterId: blue.rosterId, awayRosterId: owls.rosterId, seasonId: season.id, scheduledAt: new Date(at).toISOString() });
  const final = await game(Date.now() - 2 * day);
  for (const action of [{ type: 'START' }, { type: 'GOAL', rosterId: owls.rosterId }, { type: 'FINAL' }]) {
    const res = await page.request.post(`/api/v1/games/${final.id}/actions`, { headers: auth(owner), data: action });
    expect(res.ok(), `${action.type}: ${await res.text()}`).toBeTruthy();
  }
  const next = await game(Date.now() + 7 * day);
  return { seasonId: season.id, teamId: blue.teamId, finalId: final.id, nextId: next.id };
}

/** The name is laid out with room and shown whole (not cut with an ellipsis). */
async function expectWholeName(name: Locator, text: string) {
  await expect(name).toHaveText(text);
  const box = await name.boundingBox();
  expect(box, `${text} has a box`).not.toBeNull();
  // "Blue Liners" is about 80 px in the page's font; the bug gave 0.
  expect(box?.width ?? 0, `${text}'s width`).toBeGreaterThan(50);
  const cut = await name.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(cut, `${text} is cut`).toBe(false);
}

test('season and team schedules show both team names whole, and the result badge beside the score', async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const owner = await createPerson(page, `sl${id}`, 'Lena', 'League');
  const l = await league(page, owner, id);
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), owner.token);

  await page.goto(`/seasons/${l.seasonId}/games`);
  await page.getByTestId('filter-all').click();
  for (const gameId of [l.finalId, l.nextId]) {
    const row = page.getByTestId(`schedule-${gameId}`);
    const names = row.locator('.sched-row__name');
    await expect(names).toHaveCount(2);
    await expectWholeName(names.nth(0), 'Blue Liners');
    await expectWholeName(names.nth(1), 'Ice Owls');
  }
  await page.screenshot({ path: shot(testInfo, 'season-schedule'), fullPage: true });

  await page.goto(`/teams/${l.teamId}/schedule`);
  const final = page.getByTestId(`schedule-${l.finalId}`);
  await expectWholeName(final.locator('.sched-row__name').first(), 'Blue Liners');
  // The L badge stands clear of the score it belongs to.
  const badge = await final.getByTestId(`schedule-${l.finalId}-result`).boundingBox();
  const score = await final.getByTestId(`schedule-${l.finalId}-away`).boundingBox();
  expect(badge && score).toBeTruthy();
  if (badge && score) expect(badge.x, 'the badge starts right of the score').toBeGreaterThanOrEqual(score.x + score.width);
  await expect(final.getByTestId(`schedule-${l.finalId}-result`)).toHaveText('L');
  await page.screenshot({ path: shot(testInfo, 'team-schedule'), fullPage: true });
});
