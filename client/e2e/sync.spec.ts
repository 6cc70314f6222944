// Season sync, end to end: the rink's staff paste the league's schedule URL
// into the season, sync, read the report, match by hand the two teams the
// names did not match; then a player of a matched team opens one of the
// imported games and says he is in.
//
// The schedule is shared/fixtures/schedules/league.csv (eight teams, 40
// games), served from loopback by e2e/schedule-server.ts moved forward by
// whole weeks: the fixture's games are in Sept–Nov 2026, and a game that is
// over takes no RSVP.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import { create, createPerson, openAs, shot, suffix } from './people';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.SCHEDULE_FIXTURES ?? path.resolve(here, '../../../shared/fixtures/schedules');
const DAY_MS = 86_400_000;

/** The six teams whose names match the schedule's exactly. */
const SAME_NAMES = ['Frozen Assets', 'Blue Liners', 'Top Shelf', 'Backcheckers', 'Zamboni Drivers', 'Sin Bin Saints'];

interface FixtureGame {
  home: string;
  away: string;
}

function fixtureGames(): FixtureGame[] {
  const [header = '', ...rows] = fs.readFileSync(path.join(FIXTURES, 'league.csv'), 'utf8').split(/\r?\n/).filter((l) => l.trim());
  const cols = header.split(',');
  const home = cols.indexOf('Home Team');
  const away = cols.indexOf('Away Team');
  return rows.map((r) => {
    const cells = r.split(',');
    return { home: cells[home] ?? '', away: cells[away] ?? '' };
  });
}

test('staff sync a season from the league’s schedule, match the last two teams by hand, and a player RSVPs to an imported game', async ({ page, browser }, testInfo) => {
  // A 10 s fetch at most, two browsers, a dozen screens on a shared two-core box.
  test.setTimeout(150_000);
  const scheduleBase = process.env.RINKSIDE_SCHEDULE_URL;
  expect(scheduleBase, 'the schedule server of e2e/schedule-server.ts').toBeTruthy();
  const syncUrl = `${scheduleBase}/league-upcoming.csv`;

  const id = suffix(testInfo);
  const staff = await createPerson(page, `rnk${id}`, 'Rhea', 'Rinkmanager');
  const player = await createPerson(page, `ply${id}`, 'Pavel', 'Player');

  // The rink, a season around the schedule's (moved) dates, and the league's teams as Rinkside has them:
  // six under exactly the schedule's names, two under names of their own.
  const facility = await create<{ id: string }>(page, staff, '/api/v1/facilities', { name: `Northside Ice ${id}`, timezone: 'America/Toronto' });
  const season = await create<{ id: string }>(page, staff, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Adult League ${id}`,
    startDate: new Date(Date.now() - 30 * DAY_MS).toISOString(),
    endDate: new Date(Date.now() + 240 * DAY_MS).toISOString(),
    isActive: true,
  });
  const rosterOf: Record<string, string> = {};
  const own = { polar: `The Polar Bears ${id}`, wolves: `Wolverines HC ${id}` };
  for (const name of [...SAME_NAMES, own.polar, own.wolves]) {
    const team = await create<{ id: string }>(page, staff, '/api/v1/teams', { name, facilityId: facility.id });
    const roster = await create<{ id: string }>(page, staff, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name, status: 'ACTIVE' });
    rosterOf[name] = roster.id;
  }
  await create(page, staff, `/api/v1/rosters/${rosterOf['Frozen Assets']}/players`, { userId: player.id });

  // A game gets an event when at least one of its teams is matched: all but Polar Bears vs Wolverines.
  const games = fixtureGames();
  const unmatchedPair = new Set(['Polar Bears', 'Wolverines']);
  const withEvents = games.filter((g) => !(unmatchedPair.has(g.home) && unmatchedPair.has(g.away))).length;

  // Staff paste the schedule's URL into the season.
  const s = await openAs(browser, testInfo, staff);
  await s.goto(`/seasons/${season.id}`);
  const card = s.getByTestId('sync-card');
  await expect(card.getByTestId('sync-status')).toHaveText('Schedule sync is off');
  await expect(s.getByTestId('league-games')).toHaveCount(0);
  await card.getByTestId('add-sync-url').click();
  await expect(s).toHaveURL(new RegExp(`/seasons/${season.id}/edit$`));
  await s.getByTestId('season-sync-url').fill(syncUrl);
  await s.getByTestId('save-season').click();
  await expect(s).toHaveURL(new RegExp(`/seasons/${season.id}$`));
  await expect(card.getByTestId('sync-url-shown')).toHaveText(syncUrl);

  // Sync now: the button waits, the card says it is fetching, then the report.
  await card.getByTestId('sync-now').click();
  const report = card.getByTestId('sync-report');
  await expect(report).toBeVisible({ timeout: 30_000 });
  await expect(card.getByTestId('sync-now')).toBeEnabled();
  await expect(report).toContainText('Synced · CSV');
  await expect(report.getByTestId('report-games-created')).toHaveText(String(games.length));
  await expect(report.getByTestId('report-games-removed')).toHaveText('0');
  await expect(report.getByTestId('report-events')).toHaveText(`Events ${withEvents} created · 0 updated`);
  await expect(report.getByTestId('report-rosters')).toContainText('Teams 6 matched · 2 unmatched');
  // The card now says what is true, and the league's schedule is on the page.
  await expect(card.getByTestId('sync-status')).toContainText('Synced from the league’s schedule · last synced');
  await expect(card.getByTestId('sync-status')).toContainText('automatic sync is off');
  await expect(card.getByTestId('league-teams-link')).toContainText('League teams · 6 of 8 matched');
  await expect(s.getByTestId('league-games').getByTestId('league-game-770002')).toContainText('Frozen Assets vs Top Shelf');
  await s.screenshot({ path: shot(testInfo, 'sync-report'), fullPage: true });

  // The history has the run.
  await card.getByText('Sync history').click();
  await expect(card.getByTestId('sync-runs').locator('[data-testid^="sync-run-"]').first()).toContainText('Manual · CSV');

  // Match the two the names did not.
  await report.getByTestId('report-match-link').click();
  await expect(s).toHaveURL(new RegExp(`/seasons/${season.id}/teams$`));
  const unmatched = s.getByTestId('unmatched-teams');
  await expect(unmatched.getByRole('heading', { name: 'Not matched (2)' })).toBeVisible();
  await expect(s.getByTestId('matched-teams').getByRole('heading', { name: 'Matched (6)' })).toBeVisible();
  for (const [theirs, ours, typed] of [
    ['Polar Bears', own.polar, 'Polar'],
    ['Wolverines', own.wolves, 'Wolverines'],
  ] as const) {
    const row = unmatched.locator(`[data-name="${theirs}"]`);
    await row.getByTestId('pick-team').click();
    await row.getByTestId('team-picker').click();
    await row.getByTestId('team-picker').fill(typed);
    // This season's team (other runs may have made teams of the same name elsewhere).
    await s.getByRole('option', { name: new RegExp(ours) }).filter({ hasText: 'Plays in this season' }).click();
    await row.getByTestId('match-picked').click();
    await expect(s.getByTestId('matched-teams').locator(`[data-name="${theirs}"]`)).toContainText(ours);
  }
  await expect(unmatched).toContainText('Every team of the league is matched.');
  await expect(s.getByTestId('matched-teams').locator(`[data-name="Wolverines"]`)).toContainText('by hand');
  await s.screenshot({ path: shot(testInfo, 'sync-teams-matched'), fullPage: true });

  await s.getByRole('link', { name: `Adult League ${id}` }).click();
  await expect(s.getByTestId('league-teams-link')).toContainText('8 of 8 matched');

  // A Frozen Assets player opens their first league game from the season page and says he is in.
  const p = await openAs(browser, testInfo, player);
  await p.goto(`/seasons/${season.id}`);
  const game = p.getByTestId('league-games').getByTestId('league-game-770002');
  await expect(game).toContainText('Frozen Assets vs Top Shelf');
  await expect(game).toContainText('Rink B');
  await game.getByTestId('league-game-event').click();
  await expect(p).toHaveURL(/\/events\/[^/]+$/);
  await expect(p.getByRole('heading', { name: 'Frozen Assets vs Top Shelf' })).toBeVisible();
  await expect(p.getByTestId('rsvp-in')).toBeEnabled();
  await p.getByTestId('rsvp-in').click();
  await expect(p.getByTestId('rsvp-status')).toHaveText("You're in");
  await p.screenshot({ path: shot(testInfo, 'sync-game-rsvp'), fullPage: true });

  await s.context().close();
  await p.context().close();
});
