// A league player's own week: Home shows their team's next game first with
// their standing (and the league game, not answered yet), they answer it in one tap, "Your teams" lists their
// roster, My schedule lists the game and the league game, and their
// private calendar feed carries their answer.

import { expect, test } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix } from './people';

const DAY_MS = 86_400_000;

test('a league player sees their team’s next game on Home, answers it in one tap, and finds it in My schedule', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const coach = await createPerson(page, `cch${id}`, 'Cora', 'Coach');
  const player = await createPerson(page, `skt${id}`, 'Sam', 'Skater');

  // A rink with a season, two teams with a roster each, the player #9 on the Owls.
  const facility = await create<{ id: string }>(page, coach, '/api/v1/facilities', { name: `Maple Arena ${id}`, timezone: 'America/Toronto' });
  const season = await create<{ id: string }>(page, coach, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter League ${id}`,
    startDate: new Date(Date.now() - 30 * DAY_MS).toISOString(),
    endDate: new Date(Date.now() + 120 * DAY_MS).toISOString(),
  });
  const owls = await create<{ id: string }>(page, coach, '/api/v1/teams', { name: `Ice Owls ${id}`, facilityId: facility.id });
  const hawks = await create<{ id: string }>(page, coach, '/api/v1/teams', { name: `Hawks ${id}` });
  const owlsRoster = await create<{ id: string }>(page, coach, '/api/v1/rosters', { teamId: owls.id, seasonId: season.id, name: `Ice Owls ${id}`, status: 'ACTIVE' });
  const hawksRoster = await create<{ id: string }>(page, coach, '/api/v1/rosters', { teamId: hawks.id, seasonId: season.id, name: `Hawks ${id}`, status: 'ACTIVE' });
  await create(page, coach, `/api/v1/rosters/${owlsRoster.id}/players`, { userId: player.id, jerseyNumber: 9 });

  // The team's next game (an event the coach runs, with the Owls at home), and a league game two days later.
  const title = `Owls vs Top Shelf ${id}`;
  const tomorrow = new Date(Date.now() + DAY_MS);
  const game = await create<{ id: string }>(page, coach, '/api/v1/events', {
    title,
    eventType: 'GAME',
    facilityId: facility.id,
    startDate: tomorrow.toISOString(),
    endDate: new Date(tomorrow.getTime() + 90 * 60_000).toISOString(),
  });
  const linked = await page.request.put(`/api/v1/events/${game.id}/teams/${owls.id}`, { headers: auth(coach), data: { role: 'HOME' } });
  expect(linked.status(), await linked.text()).toBe(200);
  const league = await create<{ id: string }>(page, coach, '/api/v1/games', {
    homeRosterId: hawksRoster.id,
    awayRosterId: owlsRoster.id,
    seasonId: season.id,
    scheduledAt: new Date(Date.now() + 3 * DAY_MS).toISOString(),
  });

  // Home: the team's next game first, not answered yet; one tap answers it.
  const p = await openAs(browser, testInfo, player);
  await p.goto('/');
  const nextUp = p.getByTestId('next-up');
  const row = nextUp.getByTestId(`schedule-${game.id}`);
  await expect(row).toContainText(title);
  await expect(row.getByTestId('my-state')).toHaveText('Not answered');
  // The league game asks for my availability on the Owls (docs/availability.md › My schedule).
  await expect(nextUp.getByTestId(`schedule-${league.id}`).getByTestId('my-state')).toHaveText('Not answered');
  await expect(p.getByTestId('your-teams')).toContainText(`Ice Owls ${id}`);
  await p.screenshot({ path: shot(testInfo, 'home-next-up'), fullPage: true });
  await row.getByRole('button', { name: "I'm in" }).click();
  await expect(row.getByTestId('my-state')).toHaveText('In');
  await expect(row.getByRole('button', { name: "Can't go" })).toBeVisible();

  // The event page agrees.
  const attending = await page.request.get(`/api/v1/events/${game.id}`, { headers: auth(player) });
  expect(((await attending.json()) as { viewer: { status: string } }).viewer.status).toBe('ATTENDING');

  // My schedule lists both, in the list and in this week or the next.
  await nextUp.getByTestId('my-schedule-link').click();
  await expect(p.getByTestId('my-schedule')).toBeVisible();
  await expect(p.getByTestId('week')).toBeVisible();
  await p.getByRole('tab', { name: 'List' }).click();
  const list = p.getByTestId('schedule-list');
  await expect(list.getByTestId(`schedule-${game.id}`).getByTestId('my-state')).toHaveText('In');
  await expect(list.getByTestId(`schedule-${league.id}`)).toContainText(`Hawks ${id} vs Ice Owls ${id}`);
  await p.screenshot({ path: shot(testInfo, 'my-schedule'), fullPage: true });

  // My calendar link, read without a session, carries my answer.
  await p.getByTestId('calendar-feed-make').click();
  const url = await p.getByTestId('calendar-feed-url').inputValue();
  expect(url).toMatch(/\/api\/v1\/calendar\/[0-9a-f]{64}\.ics$/);
  const ics = await page.request.get(url);
  expect(ics.status()).toBe(200);
  const text = (await ics.text()).replace(/\r\n /g, '');
  expect(text).toContain(`SUMMARY:${title} — in`);
  await p.context().close();
});
