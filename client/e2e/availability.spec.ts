// Availability for every league game (docs/availability.md) end to end: a
// captain's roster of three (a centre, a defenceman, a goalie) has a league
// game two days ahead. The captain wants two skaters and sets it in the
// rules; Sid says in and Dora says out, each on their roster page, and the
// captain's board counts it live, no reload, short one skater. The captain
// nudges the one who has not answered; Gil finds the nudge under the bell
// and answers from Home's Next up, and the captain's board follows. Short
// a skater still, the captain posts a call for subs in one tap; then a
// message in the team chat reaches all three players live.

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix } from './people';

const DAY_MS = 86_400_000;

/** The page is on the tab's one socket, so what it shows from here on comes live. */
async function live(p: Page) {
  await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
}

test('a captain sees who is in live, nudges who has not answered, and the last player answers from Home', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const captain = await createPerson(page, `avc${id}`, 'Cara', 'Captain');
  const sid = await createPerson(page, `avs${id}`, 'Sid', 'Skater');
  const dora = await createPerson(page, `avd${id}`, 'Dora', 'Defence');
  const gil = await createPerson(page, `avg${id}`, 'Gil', 'Goalie');

  // The captain's team and roster in a season at a rink, an opponent, and a league game two days ahead.
  const facility = await create<{ id: string }>(page, captain, '/api/v1/facilities', { name: `Birch Arena ${id}`, timezone: 'America/Toronto' });
  const season = await create<{ id: string }>(page, captain, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter League ${id}`,
    startDate: new Date(Date.now() - 30 * DAY_MS).toISOString(),
    endDate: new Date(Date.now() + 120 * DAY_MS).toISOString(),
    isActive: true,
  });
  const owls = await create<{ id: string }>(page, captain, '/api/v1/teams', { name: `Owls ${id}`, facilityId: facility.id });
  const bears = await create<{ id: string }>(page, captain, '/api/v1/teams', { name: `Bears ${id}` });
  const roster = await create<{ id: string }>(page, captain, '/api/v1/rosters', { teamId: owls.id, seasonId: season.id, name: `Owls ${id}`, status: 'ACTIVE' });
  const opponent = await create<{ id: string }>(page, captain, '/api/v1/rosters', { teamId: bears.id, seasonId: season.id, name: `Bears ${id}`, status: 'ACTIVE' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: sid.id, jerseyNumber: 9, position: 'CENTER' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: dora.id, jerseyNumber: 4, position: 'LEFT_DEFENSE' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: gil.id, jerseyNumber: 30, position: 'GOALIE' });
  const game = await create<{ id: string }>(page, captain, '/api/v1/games', {
    homeRosterId: roster.id,
    awayRosterId: opponent.id,
    seasonId: season.id,
    scheduledAt: new Date(Date.now() + 2 * DAY_MS).toISOString(),
  });
  const rosterPath = `/rosters/${roster.id}`;

  // The captain (the team's owner, not a player) opens the roster: the game, nobody answered yet.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), captain.token);
  await page.goto(rosterPath);
  await live(page);
  const board = page.getByTestId(`avail-game-${game.id}`);
  await expect(board).toContainText(`Bears ${id}`);
  await expect(board.getByTestId('avail-count-skaters')).toHaveText('Skaters 0 in · 0 out · 1 no answer');
  await expect(board.getByTestId('avail-count-defence')).toHaveText('Defence 0 in · 0 out · 1 no answer');
  await expect(board.getByTestId('avail-count-goalies')).toHaveText('Goalies 0 in · 0 out · 1 no answer');
  await expect(board.getByTestId('avail-count-subs')).toHaveCount(0);
  await expect(board.getByTestId('avail-short')).toHaveCount(0);
  await expect(board.getByTestId('avail-nudge')).toHaveText("Nudge 3 who haven't answered");
  // Not a player: no answer of the captain's own.
  await expect(board.getByTestId('avail-me')).toHaveCount(0);

  // Two skaters needed (defence count): the preview says it, and the board is short at once.
  await page.getByTestId('avail-rules-minSkaters').fill('2');
  await expect(page.getByTestId('avail-rules-preview')).toContainText('You need 2 skaters in');
  await page.getByTestId('avail-rules-save').click();
  await expect(page.getByTestId('avail-rules-saved')).toBeVisible();
  await expect(board.getByTestId('avail-short')).toHaveText('Short 2 skaters');

  // Sid says in on his roster page.
  const s = await openAs(browser, testInfo, sid);
  await s.goto(rosterPath);
  await live(s);
  const sBoard = s.getByTestId(`avail-game-${game.id}`);
  await expect(sBoard.getByTestId('avail-my-answer')).toHaveText('No answer');
  await sBoard.getByTestId('avail-me-in').click();
  await expect(sBoard.getByTestId('avail-my-answer')).toHaveText('In');
  await expect(sBoard.getByTestId('avail-me-in')).toHaveAttribute('aria-pressed', 'true');

  // Dora says out on hers.
  const d = await openAs(browser, testInfo, dora);
  await d.goto(rosterPath);
  await live(d);
  const dBoard = d.getByTestId(`avail-game-${game.id}`);
  await dBoard.getByTestId('avail-me-out').click();
  await expect(dBoard.getByTestId('avail-my-answer')).toHaveText('Out');
  // Each player's board follows the other's answer too.
  await expect(dBoard.getByTestId('avail-count-skaters')).toHaveText('Skaters 1 in · 0 out · 0 no answer');

  // The captain's board counted both, without a reload: one skater short, one player to hear from.
  await expect(board.getByTestId('avail-count-skaters')).toHaveText('Skaters 1 in · 0 out · 0 no answer');
  await expect(board.getByTestId('avail-count-defence')).toHaveText('Defence 0 in · 1 out · 0 no answer');
  await expect(board.getByTestId('avail-short')).toHaveText('Short 1 skater');
  await board.getByTestId('avail-players-toggle').click();
  await expect(board.getByTestId(`avail-player-${sid.id}`).getByTestId('avail-answer')).toHaveText('In');
  await expect(board.getByTestId(`avail-player-${dora.id}`).getByTestId('avail-answer')).toHaveText('Out');
  await expect(board.getByTestId(`avail-player-${gil.id}`).getByTestId('avail-answer')).toHaveText('No answer');
  await page.screenshot({ path: shot(testInfo, 'availability-captain'), fullPage: true });

  // The captain nudges the one who has not answered.
  await expect(board.getByTestId('avail-nudge')).toHaveText("Nudge 1 who hasn't answered");
  await board.getByTestId('avail-nudge').click();
  await expect(board.getByTestId('avail-nudged')).toHaveText('Nudged just now');
  // A second nudge within 15 minutes is refused, in the server's words.
  await board.getByTestId('avail-nudge').click();
  await expect(board.getByTestId('avail-nudge-error')).toBeVisible();

  // Gil opens Home: the nudge is under the bell, and only he got it.
  const g = await openAs(browser, testInfo, gil);
  await g.goto('/');
  await live(g);
  await g.getByTestId('bell').click();
  const nudge = g.getByTestId('bell-panel').locator('[data-type="AVAILABILITY_NUDGE"]');
  await expect(nudge).toHaveCount(1);
  await expect(nudge).toContainText('are you in for');
  await expect(nudge.getByRole('link')).toHaveAttribute('href', rosterPath);
  await g.screenshot({ path: shot(testInfo, 'availability-nudge') });
  await g.keyboard.press('Escape');
  const sidsNotes = await page.request.get('/api/v1/notifications', { headers: auth(sid) });
  expect(sidsNotes.ok(), await sidsNotes.text()).toBeTruthy();
  expect(JSON.stringify(await sidsNotes.json())).not.toContain('AVAILABILITY_NUDGE');

  // He answers from Home's Next up in one tap.
  const row = g.getByTestId('next-up').getByTestId(`schedule-${game.id}`);
  await expect(row.getByTestId('my-state')).toHaveText('Not answered');
  await row.getByRole('button', { name: "I'm in" }).click();
  await expect(row.getByTestId('my-state')).toHaveText('In');
  await expect(row.getByRole('button', { name: "Can't go" })).toBeVisible();
  await g.screenshot({ path: shot(testInfo, 'availability-next-up'), fullPage: true });

  // The captain's board follows, live: everyone has answered.
  await expect(board.getByTestId('avail-count-goalies')).toHaveText('Goalies 1 in · 0 out · 0 no answer');
  await expect(board.getByTestId(`avail-player-${gil.id}`).getByTestId('avail-answer')).toHaveText('In');
  await expect(board.getByTestId('avail-nudge')).toHaveCount(0);

  // Still a skater short: one tap posts the team's call for subs, for a skater, until puck drop.
  await expect(board.getByTestId('avail-short')).toHaveText('Short 1 skater');
  await board.getByTestId('avail-subs-call').click();
  await expect(board.getByTestId('avail-subs-posted')).toContainText('Call posted');
  const mine = await page.request.get('/api/v1/me/statuses', { headers: auth(captain) });
  expect(mine.ok(), await mine.text()).toBeTruthy();
  const calls = ((await mine.json()) as { items: Array<{ type: string; teamId: string | null; positions: string[]; message: string | null }> }).items.filter(
    (st) => st.type === 'LOOKING_FOR_SUBS' && st.teamId === owls.id,
  );
  expect(calls).toHaveLength(1);
  expect(calls[0]?.positions).toEqual(['CENTER', 'LEFT_WING', 'RIGHT_WING', 'LEFT_DEFENSE', 'RIGHT_DEFENSE']);
  expect(calls[0]?.message).toMatch(/^Short 1 skater for \w{3} \d{1,2}:\d{2} [AP]M vs Bears .+ — come play\.$/);
  await page.screenshot({ path: shot(testInfo, 'availability-call-posted'), fullPage: true });
  await board.getByTestId('avail-subs-board').click();
  await expect(page.getByTestId('subs-page')).toBeVisible();

  // Then the team talks: the three players have the team chat open, and the
  // captain's message reaches every one of them live, without a reload.
  const chatPath = `/chats/roster-${roster.id}`;
  for (const p of [s, d, g]) {
    await p.goto(chatPath);
    await live(p);
    await expect(p.getByTestId('chat-thread')).toBeVisible();
  }
  await page.goto(rosterPath);
  await page.getByTestId('team-chat-card').getByTestId('open-team-chat').click();
  await expect(page).toHaveURL(new RegExp(`${chatPath}$`));
  await page.getByTestId('chat-input').fill('Thanks for answering: a sub is coming for the last skater spot');
  await page.getByTestId('chat-input').press('Enter');
  for (const p of [s, d, g]) {
    const said = p.getByTestId('chat-thread').getByTestId('chat-message').filter({ hasText: 'a sub is coming for the last skater spot' });
    await expect(said).toHaveCount(1);
  }
  await g.screenshot({ path: shot(testInfo, 'availability-chat'), fullPage: true });

  for (const other of [s, d, g]) await other.context().close();
});
