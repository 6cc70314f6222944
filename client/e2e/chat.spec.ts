// Team chat (docs/chat.md) end to end: a captain's roster of three. The
// captain opens the team chat from the roster page and two players open it
// on theirs, three browsers at once. The captain posts; it shows on both
// players' screens without a reload, once each. Sid replies. Gil, on Home
// and not looking, gets the unread count on Messages in the nav, finds the
// conversation at the top of his list and reads it, which clears the
// count. The captain (a moderator) deletes Sid's reply, and every screen
// says "Message deleted".
//
// The reminders job that turns an unread message into a CHAT_MESSAGE
// notification ticks every REMINDER_TICK_SECONDS, 30 s by default, and
// playwright.config.ts does not set it lower for the server it starts: a
// notification could take up to a minute, so this story checks the nav's
// live count, not the notification (the client's rendering of
// CHAT_MESSAGE is covered by the unit tests of the bell).

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix } from './people';

const DAY_MS = 86_400_000;

/** The page is on the tab's one socket, so what it shows from here on comes live. */
async function live(p: Page) {
  await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
}

/** The one message on `p`'s thread whose text is `text` (a message shows exactly once, however it arrived). */
function message(p: Page, text: string) {
  return p.getByTestId('chat-thread').getByTestId('chat-message').filter({ hasText: text });
}

/** Messages in the nav: the top bar's on a wide screen, the bottom bar's on a phone (exactly one is visible). */
function messagesLink(p: Page) {
  return p.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /^Messages/ }).filter({ visible: true });
}

test('a roster chats live: the captain posts, the players see it at once, a reply, the count for the one not looking, and a moderator’s delete on every screen', async ({ page, browser }, testInfo) => {
  test.setTimeout(120_000);
  const id = suffix(testInfo);
  const captain = await createPerson(page, `chc${id}`, 'Cara', 'Captain');
  const sid = await createPerson(page, `chs${id}`, 'Sid', 'Skater');
  const dora = await createPerson(page, `chd${id}`, 'Dora', 'Defence');
  const gil = await createPerson(page, `chg${id}`, 'Gil', 'Goalie');

  // The captain's team, a season at a rink, the roster, and three players on it.
  const facility = await create<{ id: string }>(page, captain, '/api/v1/facilities', { name: `Pine Arena ${id}`, timezone: 'America/Toronto' });
  const season = await create<{ id: string }>(page, captain, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter League ${id}`,
    startDate: new Date(Date.now() - 30 * DAY_MS).toISOString(),
    endDate: new Date(Date.now() + 120 * DAY_MS).toISOString(),
    isActive: true,
  });
  const owls = await create<{ id: string }>(page, captain, '/api/v1/teams', { name: `Owls ${id}`, facilityId: facility.id });
  const roster = await create<{ id: string }>(page, captain, '/api/v1/rosters', { teamId: owls.id, seasonId: season.id, name: `Owls ${id}`, status: 'ACTIVE' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: sid.id, jerseyNumber: 9, position: 'CENTER' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: dora.id, jerseyNumber: 4, position: 'LEFT_DEFENSE' });
  await create(page, captain, `/api/v1/rosters/${roster.id}/players`, { userId: gil.id, jerseyNumber: 30, position: 'GOALIE' });
  const chatPath = `/chats/roster-${roster.id}`;

  // The captain (the team's owner) opens the team chat from the roster page.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), captain.token);
  await page.goto(`/rosters/${roster.id}`);
  await live(page);
  await page.getByTestId('team-chat-card').getByTestId('open-team-chat').click();
  await expect(page).toHaveURL(new RegExp(`${chatPath}$`));
  await expect(page.getByTestId('chat-title')).toContainText('Owls');
  await expect(page.getByTestId('chat-thread').getByText('No messages yet')).toBeVisible();

  // Sid opens it from his roster page too; Dora straight from its address.
  const s = await openAs(browser, testInfo, sid);
  await s.goto(`/rosters/${roster.id}`);
  await live(s);
  await s.getByTestId('open-team-chat').click();
  await expect(s.getByTestId('chat-thread')).toBeVisible();
  const d = await openAs(browser, testInfo, dora);
  await d.goto(chatPath);
  await live(d);
  await expect(d.getByTestId('chat-thread')).toBeVisible();

  // Gil is on Home, not looking at the chat.
  const g = await openAs(browser, testInfo, gil);
  await g.goto('/');
  await live(g);
  await expect(messagesLink(g)).toBeVisible();
  await expect(g.getByTestId('chats-unread').filter({ visible: true })).toHaveCount(0);

  // The captain posts: it shows at once, then as the server's copy, once.
  await page.getByTestId('chat-input').fill('Ice at 9, bring both jerseys');
  await page.getByTestId('chat-input').press('Enter');
  await expect(page.getByTestId('chat-input')).toHaveValue('');
  await expect(message(page, 'Ice at 9, bring both jerseys')).toHaveCount(1);
  await expect(page.getByTestId('chat-pending')).toHaveCount(0);

  // Both players see it live, without a reload, once each, with who wrote it.
  for (const p of [s, d]) {
    await expect(message(p, 'Ice at 9, bring both jerseys')).toHaveCount(1);
    await expect(message(p, 'Ice at 9, bring both jerseys').getByTestId('chat-message-author')).toHaveText('Cara Captain');
  }

  // Sid replies; the captain and Dora see it under the first.
  await s.getByTestId('chat-input').fill('see you at 9');
  await s.getByTestId('chat-input').press('Enter');
  await expect(message(s, 'see you at 9')).toHaveCount(1);
  for (const p of [page, d]) {
    await expect(message(p, 'see you at 9')).toHaveCount(1);
    const bodies = await p.getByTestId('chat-thread').getByTestId('chat-message-body').allTextContents();
    expect(bodies).toEqual(['Ice at 9, bring both jerseys', 'see you at 9']);
  }
  await page.screenshot({ path: shot(testInfo, 'chat-captain'), fullPage: true });

  // Gil, still on Home, has the count on Messages: two messages he has not read.
  await expect(g.getByTestId('chats-unread').filter({ visible: true })).toHaveText(/^2/);
  await g.screenshot({ path: shot(testInfo, 'chat-unread-badge') });
  // Dora has been looking at the bottom of the thread all along: it was marked read as the messages came.
  await expect
    .poll(async () => ((await (await page.request.get('/api/v1/chats', { headers: auth(dora) })).json()) as { unread: number }).unread, { timeout: 10_000 })
    .toBe(0);
  await expect(d.getByTestId('chats-unread').filter({ visible: true })).toHaveCount(0);

  // He opens Messages: the team chat is at the top with Sid's reply and the count.
  await messagesLink(g).click();
  const row = g.getByTestId('chat-row').first();
  await expect(row).toHaveAttribute('data-id', `roster-${roster.id}`);
  await expect(row.getByTestId('chat-row-preview')).toHaveText('Sid: see you at 9');
  await expect(row.getByTestId('chat-row-unread')).toContainText('2');
  await row.click();
  await expect(message(g, 'see you at 9')).toHaveCount(1);
  // Reading it clears the count, on the nav and in the list.
  await expect(g.getByTestId('chats-unread').filter({ visible: true })).toHaveCount(0);
  await expect(g.getByTestId('chat-row-unread')).toHaveCount(0);

  // The captain, a moderator, deletes Sid's reply: two taps, in place.
  const reply = message(page, 'see you at 9');
  await reply.hover();
  await reply.getByTestId('chat-delete').click();
  await reply.getByRole('button', { name: 'Delete?' }).click();

  // Every screen says so, in the message's place; the first message stands.
  for (const p of [page, s, d, g]) {
    const thread = p.getByTestId('chat-thread');
    await expect(thread.getByTestId('chat-message-deleted')).toHaveCount(1);
    await expect(thread.getByTestId('chat-message-deleted')).toHaveText('Message deleted');
    await expect(thread.getByText('see you at 9')).toHaveCount(0);
    await expect(message(p, 'Ice at 9, bring both jerseys')).toHaveCount(1);
  }
  await s.screenshot({ path: shot(testInfo, 'chat-deleted'), fullPage: true });

  for (const other of [s, d, g]) await other.context().close();
});
