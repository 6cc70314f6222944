import { expect, test, type Page } from '@playwright/test';
import { createPerson, letCollect, openAs, shot, suffix, type Person } from './people';

async function signIn(page: Page, person: Person) {
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), person.token);
}

/** `datetime-local` value for tomorrow at 19:00 in the browser's zone. */
function tomorrowEvening(): string {
  const d = new Date();
  d.setDate(d.getDate() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T19:00`;
}

test('two players race for the last skater slot: exactly one gets it, the other is promoted live', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const organiser = await createPerson(page, `org${id}`, 'Olive', 'Organiser');
  const alice = await createPerson(page, `ali${id}`, 'Alice', 'Ames');
  const bruno = await createPerson(page, `bru${id}`, 'Bruno', 'Berg');

  // The organiser creates a one-skater event through the form.
  await signIn(page, organiser);
  await page.goto('/events/new');
  await page.getByTestId('save-event').click();
  await expect(page.getByText('Give the event a name.')).toBeVisible();
  const title = `Last spot skate ${id}`;
  await page.getByTestId('type-PUBLIC_SKATING').click();
  await page.getByTestId('event-title').fill(title);
  await page.getByTestId('event-start').fill(tomorrowEvening());
  await page.getByTestId('event-location').fill('Rink B');
  await page.getByTestId('event-max-skaters').fill('1');
  await page.getByTestId('event-max-goalies').fill('1');
  await page.getByTestId('groups-toggle').check();
  await page.getByLabel('Description').fill('Full gear. One spot only, first come first served.');
  await page.getByTestId('save-event').click();

  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page).toHaveURL(/\/events\/[^/]+$/);
  const eventPath = new URL(page.url()).pathname;
  await expect(page.getByTestId('event-counts')).toHaveText('0/1 skater · 0/1 goalie');
  await expect(page.getByTestId('organiser-tools')).toBeVisible();

  // Two players, two separate browser contexts, both live on the event page.
  const [a, b] = await Promise.all([openAs(browser, testInfo, alice), openAs(browser, testInfo, bruno)]);
  await Promise.all([a.goto(eventPath), b.goto(eventPath)]);
  for (const p of [a, b]) {
    await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
    await expect(p.getByTestId('rsvp-status')).toHaveText('Are you in?');
    await expect(p.getByTestId('rsvp-in')).toBeEnabled();
    await expect(p.getByTestId('event-counts')).toHaveText('0/1 skater · 0/1 goalie');
  }

  // The race: both tap "I'm in" at the same moment.
  await Promise.all([a.getByTestId('rsvp-in').click(), b.getByTestId('rsvp-in').click()]);

  const outcome = /^(You're in|Waitlisted #1)$/;
  await expect(a.getByTestId('rsvp-status')).toHaveText(outcome);
  await expect(b.getByTestId('rsvp-status')).toHaveText(outcome);
  const aWon = (await a.getByTestId('rsvp-status').textContent()) === "You're in";
  const [winner, loser] = aWon ? [a, b] : [b, a];
  const [winnerPerson, loserPerson] = aWon ? [alice, bruno] : [bruno, alice];
  await expect(winner.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(loser.getByTestId('rsvp-status')).toHaveText('Waitlisted #1');
  for (const p of [a, b, page]) await expect(p.getByTestId('event-counts')).toHaveText('1/1 skater · 0/1 goalie · 1 waiting');
  await expect(loser.getByTestId(`waiting-${loserPerson.id}`)).toContainText('#1');

  // The winner drops out; the loser is promoted on their open page, no reload.
  await loser.evaluate(() => ((window as unknown as { __stillHere: boolean }).__stillHere = true));
  await winner.getByTestId('rsvp-out').click();
  // A waitlist would take the place: the page asks first, keeping it is the default.
  await expect(winner.getByTestId('rsvp-out-confirm')).toBeVisible();
  await expect(winner.getByTestId('rsvp-keep')).toBeFocused();
  await winner.getByTestId('rsvp-give-up').click();
  await expect(winner.getByTestId('rsvp-status')).toHaveText("You're out");
  await expect(loser.getByTestId('rsvp-status')).toHaveText("You're in");
  expect(await loser.evaluate(() => (window as unknown as { __stillHere?: boolean }).__stillHere)).toBe(true);
  await expect(loser.getByTestId(`attendee-${loserPerson.id}`)).toBeVisible();
  await expect(loser.getByTestId('waitlist')).toHaveCount(0);
  for (const p of [a, b, page]) await expect(p.getByTestId('event-counts')).toHaveText('1/1 skater · 0/1 goalie');
  await expect(page.getByTestId(`attendee-${loserPerson.id}`)).toBeVisible();
  await expect(page.getByTestId(`attendee-${winnerPerson.id}`)).toHaveCount(0);

  await loser.screenshot({ path: shot(testInfo, 'event-page-player'), fullPage: true });

  // The organiser runs a rink, whose staff (they) let them collect payments; the profile shows it
  // on. They mark the player paid.
  await letCollect(page, organiser, `Olive's Rink ${id}`);
  await page.goto('/settings/profile#payments');
  await expect(page.getByTestId('collect-payments')).toBeChecked();
  await page.goto(eventPath);
  const paid = page.getByTestId(`paid-${loserPerson.id}`);
  await expect(paid).toHaveText('Unpaid');
  await paid.click();
  await expect(paid).toHaveAttribute('aria-pressed', 'true');
  await expect(paid).toHaveText('Paid');
  await page.screenshot({ path: shot(testInfo, 'event-page-organiser'), fullPage: true });

  // The promoted player sees it on their page and in Home's next up.
  await loser.reload();
  await expect(loser.getByTestId('my-payment')).toHaveText(/Paid/);
  await loser.goto('/');
  await expect(loser.getByTestId('next-up').getByText(title)).toBeVisible();

  // Cancelling shows a banner to everyone watching.
  await loser.goto(eventPath);
  await expect(loser.getByTestId('rsvp-status')).toHaveText("You're in");
  await page.getByTestId('cancel-event').click();
  await page.getByTestId('cancel-event').click();
  await expect(loser.getByTestId('cancelled-banner')).toContainText('This event is cancelled');
  await expect(loser.getByTestId('rsvp-out')).toHaveCount(0);

  await a.context().close();
  await b.context().close();
});

test('the events list filters by what I am attending', async ({ page }, testInfo) => {
  const id = suffix(testInfo);
  const me = await createPerson(page, `lst${id}`, 'Lena', 'List');
  const headers = { Authorization: `Bearer ${me.token}` };
  const start = new Date(Date.now() + 3 * 24 * 3600 * 1000).toISOString();
  const mk = async (title: string) => {
    const res = await page.request.post('/api/v1/events', { headers, data: { title, startDate: start, eventType: 'PRACTICE', maxSkaters: 12 } });
    expect(res.status()).toBe(201);
    return ((await res.json()) as { id: string }).id;
  };
  const going = await mk(`Going skate ${id}`);
  await mk(`Other skate ${id}`);
  expect((await page.request.put(`/api/v1/events/${going}/rsvp`, { headers, data: { action: 'ATTENDING', position: 'RIGHT_WING' } })).ok()).toBeTruthy();

  await signIn(page, me);
  await page.goto('/events');
  await expect(page.getByText(`Other skate ${id}`)).toBeVisible();
  // A card follows its counts only while on screen; other stories' events may list above it.
  await page.getByTestId(`event-card-${going}`).scrollIntoViewIfNeeded();
  await expect(page.getByTestId(`event-card-${going}`)).toContainText('1/12 skaters');
  await page.getByTestId('filter-going').click();
  await expect(page.getByText(`Other skate ${id}`)).toHaveCount(0);
  await expect(page.getByText(`Going skate ${id}`)).toBeVisible();
  await expect(page).toHaveURL(/going=1/);
  await page.screenshot({ path: shot(testInfo, 'events-list') });
});

test('a stranger\'s event at a rink shows as a community event until the rink\'s manager lists it', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const manager = await createPerson(page, `mgr${id}`, 'Mara', 'Manager');
  const stranger = await createPerson(page, `str${id}`, 'Sam', 'Stranger');
  const rinkName = `Maple Arena ${id}`;
  const facility = await page.request.post('/api/v1/facilities', {
    headers: { Authorization: `Bearer ${manager.token}` },
    data: { name: rinkName, timezone: 'America/Toronto' },
  });
  expect(facility.status()).toBe(201);
  const facilityId = ((await facility.json()) as { id: string }).id;
  const title = `Pickup at the Maple ${id}`;
  const created = await page.request.post('/api/v1/events', {
    headers: { Authorization: `Bearer ${stranger.token}` },
    data: { title, startDate: new Date(Date.now() + 2 * 24 * 3600 * 1000).toISOString(), eventType: 'PUBLIC_SKATING', facilityId, location: 'Sheet 2', maxSkaters: 20, maxGoalies: 2 },
  });
  expect(created.status()).toBe(201);
  const eventId = ((await created.json()) as { id: string }).id;

  // Its organiser sees it as a community event at the rink, with no listing control.
  await signIn(page, stranger);
  await page.goto(`/events/${eventId}`);
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  await expect(page.getByTestId('community-chip')).toHaveText('Community event');
  await expect(page.getByTestId('community-note')).toHaveText(`Organised by you · not run by ${rinkName}`);
  await expect(page.getByTestId('rink-listing')).toHaveCount(0);
  await page.screenshot({ path: shot(testInfo, 'event-page-community'), fullPage: true });

  // The rink's list leaves it out unless community events are asked for.
  await page.goto(`/events?facility=${facilityId}`);
  await expect(page.getByText('Nothing matches these filters')).toBeVisible();
  await page.getByTestId('filter-community').click();
  await expect(page).toHaveURL(/community=1/);
  await expect(page.getByTestId(`event-card-${eventId}`)).toContainText('Community');
  await page.screenshot({ path: shot(testInfo, 'events-list-community') });

  // The rink's manager sees the same page with the listing card, and lists it.
  const staff = await openAs(browser, testInfo, manager);
  await staff.goto(`/events/${eventId}`);
  await expect(staff.getByTestId('community-note')).toHaveText(`Organised by Sam Stranger · not run by ${rinkName}`);
  const card = staff.getByTestId('rink-listing');
  await expect(card.getByTestId('listing-status')).toHaveText('Community event');
  await staff.screenshot({ path: shot(testInfo, 'event-page-rink-staff'), fullPage: true });
  await card.getByRole('button', { name: `List at ${rinkName}` }).click();
  await expect(card.getByTestId('listing-status')).toHaveText(`Listed at ${rinkName}`);
  await expect(staff.getByTestId('community-chip')).toHaveCount(0);
  await expect(card.getByRole('button', { name: `Remove ${rinkName}'s name` })).toBeVisible();
  await staff.evaluate(() => window.scrollTo(0, 0));
  await staff.screenshot({ path: shot(testInfo, 'event-page-rink-staff-listed'), fullPage: true });

  // Now it is in the rink's own list, without the chip.
  await page.goto(`/events?facility=${facilityId}`);
  await expect(page.getByTestId(`event-card-${eventId}`)).toBeVisible();
  await expect(page.getByTestId(`event-card-${eventId}`)).not.toContainText('Community');
  await staff.context().close();
});
