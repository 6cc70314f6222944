// Fair sides and the ice bill (docs/sides-and-bill.md) end to end: a rink's
// owner sets the rink's currency and lets an organiser collect for ice; the
// organiser's pickup fills, they make teams and swap two players, set the
// cost and bill the players; a player watching the page sees their side,
// the swap and what they owe without a reload, and "Paid" once marked.

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix, type Person } from './people';

/** Tomorrow at 21:30, an ISO string. */
function tomorrowNight(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  d.setHours(21, 30, 0, 0);
  return d.toISOString();
}

async function rsvp(page: Page, person: Person, eventId: string, position: string) {
  const res = await page.request.put(`/api/v1/events/${eventId}/rsvp`, { headers: auth(person), data: { action: 'ATTENDING', position } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/** Which side a player's row is in on the organiser's page. */
async function sideOf(page: Page, userId: string): Promise<'DARK' | 'LIGHT'> {
  const inDark = await page.getByTestId('side-DARK').getByTestId(`side-player-${userId}`).count();
  return inDark > 0 ? 'DARK' : 'LIGHT';
}

test('the rink lets an organiser collect; teams are made and swapped, the ice is billed, and a player sees side, share and "Paid" live', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const owner = await createPerson(page, `rk${id}`, 'Rhea', 'Rinkowner');
  const organiser = await createPerson(page, `og${id}`, 'Olive', 'Organiser');
  const goalie = await createPerson(page, `gk${id}`, 'Gus', 'Goalie');
  const dee = await createPerson(page, `df${id}`, 'Dana', 'Defence');
  const pat = await createPerson(page, `pt${id}`, 'Pat', 'Player');
  const fay = await createPerson(page, `fw${id}`, 'Fay', 'Forward');

  // The rink's owner makes the rink and sets its currency on the rink's form.
  const rink = await create<{ id: string }>(page, owner, '/api/v1/facilities', { name: `Maple Arena ${id}`, timezone: 'America/Toronto' });
  const ownerPage = await openAs(browser, testInfo, owner);
  await ownerPage.goto(`/facilities/${rink.id}/edit`);
  await ownerPage.getByTestId('facility-currency').selectOption('USD');
  await ownerPage.getByTestId('save-facility').click();
  await expect(ownerPage).toHaveURL(new RegExp(`/facilities/${rink.id}$`));

  // The organiser's pickup at the rink fills up.
  const title = `Tuesday pickup ${id}`;
  const event = await create<{ id: string }>(page, organiser, '/api/v1/events', { title, startDate: tomorrowNight(), eventType: 'OTHER', maxSkaters: 10, maxGoalies: 2, facilityId: rink.id });
  const eventPath = `/events/${event.id}`;
  await rsvp(page, goalie, event.id, 'GOALIE');
  await rsvp(page, dee, event.id, 'LEFT_DEFENSE');
  await rsvp(page, pat, event.id, 'CENTER');
  await rsvp(page, fay, event.id, 'RIGHT_WING');

  // The organiser cannot collect yet: the bill card says the rink grants it.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), organiser.token);
  await page.goto(eventPath);
  await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('collection-explained')).toContainText(`Maple Arena ${id} turns on payment collection.`);

  // The rink's owner lets them.
  await ownerPage.goto(eventPath);
  const grant = ownerPage.getByTestId('grant-collection');
  await expect(grant).toHaveText('Let Olive Organiser collect payments');
  await grant.click();
  await expect(ownerPage.getByTestId('collection-granted')).toContainText('Olive Organiser collects payments');

  // A player keeps the event open on their phone or laptop.
  const p = await openAs(browser, testInfo, pat);
  await p.goto(eventPath);
  await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(p.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(p.getByTestId('my-side')).toHaveCount(0);

  // The organiser makes teams.
  await page.reload();
  await expect(page.getByTestId('sides')).toContainText('4 players in.');
  await page.getByTestId('make-sides').click();
  await expect(page.getByTestId('side-DARK')).toBeVisible();
  await expect(page.getByTestId('side-LIGHT')).toBeVisible();
  // One goalie: on one side, and the totals say so.
  const goalieSide = await sideOf(page, goalie.id);
  await expect(page.getByTestId(`sides-totals-${goalieSide}`)).toContainText('1 G');

  // The player sees their side live.
  const patSide = await sideOf(page, pat.id);
  const name = patSide === 'DARK' ? 'Dark' : 'Light';
  await expect(p.getByTestId('my-side')).toHaveText(new RegExp(`You're on ${name}`));

  // Two taps swap Pat with someone on the other side; Pat's page follows.
  const other = patSide === 'DARK' ? 'LIGHT' : 'DARK';
  const across = page.getByTestId(`side-${other}`).locator('[data-testid^="side-player-"]').first();
  await page.getByTestId(`side-player-${pat.id}`).click();
  await expect(page.getByTestId(`side-player-${pat.id}`)).toHaveAttribute('aria-pressed', 'true');
  await across.click();
  await expect(page.getByTestId(`side-${other}`).getByTestId(`side-player-${pat.id}`)).toBeVisible();
  const swappedName = other === 'DARK' ? 'Dark' : 'Light';
  await expect(p.getByTestId('my-side')).toHaveText(new RegExp(`You're on ${swappedName}`));
  await page.screenshot({ path: shot(testInfo, 'sides-organiser'), fullPage: true });

  // The organiser sets the cost (goalies free, the organiser does not play) and bills.
  await page.getByTestId('bill-cost').fill('60');
  await page.getByTestId('bill-goalies-FREE').click();
  await page.getByTestId('bill-save').click();
  await expect(page.getByTestId('bill-preview-line')).toHaveText('Each skater ≈ $20.00, goalies free');
  await page.getByTestId('close-bill').click();
  await expect(page.getByTestId('bill-shares')).toBeVisible();
  await expect(page.getByTestId(`bill-amount-${pat.id}`)).toHaveText('$20.00');
  await expect(page.getByTestId('bill-outstanding')).toHaveText('$60.00');

  // The player sees what they owe, live.
  await expect(p.getByTestId('my-bill-title')).toHaveText(`You owe $20.00 for ${title}`);
  await p.screenshot({ path: shot(testInfo, 'sides-and-bill-player'), fullPage: true });

  // Marked paid by the organiser: the player's page says so, live.
  const paid = page.getByTestId(`bill-paid-${pat.id}`);
  await expect(paid).toHaveText('Unpaid');
  await paid.click();
  await expect(paid).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('bill-collected')).toHaveText('$20.00');
  await expect(page.getByTestId('bill-outstanding')).toHaveText('$40.00');
  await expect(p.getByTestId('my-bill-title')).toHaveText('Paid');
  await expect(p.getByTestId('my-bill')).toContainText('You paid $20.00');
  await page.screenshot({ path: shot(testInfo, 'bill-organiser'), fullPage: true });

  await p.context().close();
  await ownerPage.context().close();
});
