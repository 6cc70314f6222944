// Weekly skates (docs/series.md) end to end: an organiser makes six Tuesdays
// (or whatever weekday a week from now is) through the form, moves the 2nd
// and every later one by half an hour, cancels the 4th alone, and a player
// who signed up for the 2nd sees the new time.

import { expect, test, type Page } from '@playwright/test';
import { createPerson, openAs, shot, suffix } from './people';

const pad = (n: number) => String(n).padStart(2, '0');
const localDay = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The hero's time line ("Tue, Dec 1 · 9:30 – 11:00 PM" style), any locale spacing. */
async function heroTime(page: Page, eventId: string) {
  await page.goto(`/events/${eventId}`);
  const hero = page.getByTestId('event-hero');
  await expect(hero).toBeVisible();
  return hero;
}

test('an organiser makes a weekly pickup, moves the rest of it, cancels one week; a player sees the new time', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const organiser = await createPerson(page, `wk${id}`, 'Wanda', 'Weekly');
  const player = await createPerson(page, `wp${id}`, 'Pat', 'Player');
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), organiser.token);

  // A week from today at 21:30, every week until five weeks after that: six events.
  const first = new Date();
  first.setDate(first.getDate() + 7);
  const last = new Date(first);
  last.setDate(last.getDate() + 35);
  const title = `Tuesday pickup ${id}`;

  await page.goto('/events/new');
  await page.getByTestId('type-OTHER').click();
  await expect(page.getByTestId('type-OTHER')).toHaveText('Pickup / other');
  await page.getByTestId('event-title').fill(title);
  await page.getByTestId('event-start').fill(`${localDay(first)}T21:30`);
  await page.getByTestId('event-max-skaters').fill('12');
  await page.getByTestId('repeat-WEEKLY').click();
  // Eight weeks by default, then the organiser's own end.
  await expect(page.getByTestId('series-preview')).toContainText('9 events');
  await page.getByTestId('repeat-until').fill(localDay(last));
  await expect(page.getByTestId('series-preview')).toContainText('6 events');
  await expect(page.getByTestId('series-preview')).toContainText(/at 9:30\sPM/);
  await expect(page.getByTestId('save-event')).toHaveText('Create 6 events');
  await page.getByTestId('repeat-field').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot(testInfo, 'series-create-form') });
  await page.getByTestId('save-event').click();

  // The first event opens, with the strip of all six.
  await expect(page.getByRole('heading', { name: title })).toBeVisible();
  const strip = page.getByTestId('series-strip');
  await expect(strip.getByRole('link')).toHaveCount(6);
  await expect(strip.getByTestId('series-position')).toHaveText('Event 1 of 6');
  await expect(strip.getByTestId('series-pattern')).toContainText(/at 9:30\sPM · until/);
  const ids = await strip.getByRole('link').evaluateAll((links) => links.map((a) => (a.getAttribute('href') ?? '').split('/').pop() ?? ''));
  expect(ids).toHaveLength(6);
  expect(new Set(ids).size).toBe(6);
  await expect(strip.getByRole('link').first()).toHaveAttribute('aria-current', 'page');
  await page.screenshot({ path: shot(testInfo, 'series-first-event'), fullPage: true });

  // A player signs up for the 2nd week and stays on its page.
  const p = await openAs(browser, testInfo, player);
  await p.goto(`/events/${ids[1]}`);
  await expect(p.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(p.getByTestId('series-position')).toHaveText('Event 2 of 6');
  await p.getByTestId('rsvp-in').click();
  await expect(p.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(p.getByTestId('event-hero')).toContainText('9:30');

  // The organiser moves the 2nd week to 22:00, for it and every later week.
  await page.goto(`/events/${ids[1]}`);
  await page.getByTestId('edit-event').click();
  const second = new Date(first);
  second.setDate(second.getDate() + 7);
  await page.getByTestId('event-start').fill(`${localDay(second)}T22:00`);
  await page.getByTestId('save-event').click();
  const choice = page.getByRole('alertdialog', { name: 'Save for which weeks?' });
  await expect(choice).toBeVisible();
  await expect(page.getByTestId('scope-this')).toBeFocused();
  await page.screenshot({ path: shot(testInfo, 'series-scope-choice') });
  await page.getByTestId('scope-following').click();
  await expect(page).toHaveURL(new RegExp(`/events/${ids[1]}$`));
  await expect(page.getByTestId('event-hero')).toContainText('10:00');

  // 2nd…6th at 22:00; the 1st keeps 21:30, and its chip says so.
  for (const later of ids.slice(1)) await expect(await heroTime(page, later)).toContainText('10:00');
  await expect(await heroTime(page, ids[0] ?? '')).toContainText('9:30');
  await expect(page.getByTestId('series-pattern')).toContainText(/at 10:00\sPM/);
  await expect(page.getByTestId(`series-date-${ids[0]}`)).toContainText(/9:30\sPM/);
  await expect(page.getByTestId(`series-date-${ids[1]}`)).not.toContainText('PM');

  // The organiser cancels the 4th week only.
  await page.goto(`/events/${ids[3]}`);
  await expect(page.getByTestId('cancel-following')).toBeVisible();
  await page.getByTestId('cancel-event').click();
  await page.getByTestId('cancel-event').click();
  await expect(page.getByTestId('cancelled-banner')).toBeVisible();
  await expect(page.getByTestId(`series-date-${ids[3]}`)).toHaveAttribute('data-cancelled', 'true');
  await expect(page.getByTestId(`series-date-${ids[3]}`)).toHaveAccessibleName(/cancelled/);
  await expect(page.getByTestId(`series-date-${ids[4]}`)).not.toHaveAttribute('data-cancelled', 'true');
  await expect(page.getByTestId(`series-date-${ids[2]}`)).not.toHaveAttribute('data-cancelled', 'true');
  await page.getByTestId('series-strip').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot(testInfo, 'series-cancelled-week') });
  // The 5th is still on.
  await page.goto(`/events/${ids[4]}`);
  await expect(page.getByTestId('cancelled-banner')).toHaveCount(0);
  await expect(page.getByTestId('cancel-event')).toBeVisible();

  // The player's open page of the 2nd week shows the new time.
  await expect(p.getByTestId('event-hero')).toContainText('10:00');
  await expect(p.getByTestId('rsvp-status')).toHaveText("You're in");
  // Another week's cancellation reaches this open page live (`series:ID`), no reload.
  await expect(p.getByTestId(`series-date-${ids[3]}`)).toHaveAttribute('data-cancelled', 'true');
  await expect(p.getByTestId('event-hero')).toContainText('10:00');
  await p.screenshot({ path: shot(testInfo, 'series-player-second-week'), fullPage: true });

  // The season ends early: from the 5th on, all cancelled in two taps; the 3rd stays on.
  await page.goto(`/events/${ids[4]}`);
  await page.getByTestId('cancel-following').click();
  await expect(page.getByTestId('cancel-following')).toHaveText('Tap again to cancel the rest');
  await page.getByTestId('cancel-following').click();
  await expect(page.getByTestId('cancelled-banner')).toBeVisible();
  for (const gone of [ids[4], ids[5]]) await expect(page.getByTestId(`series-date-${gone}`)).toHaveAttribute('data-cancelled', 'true');
  await expect(page.getByTestId(`series-date-${ids[2]}`)).not.toHaveAttribute('data-cancelled', 'true');
  // …and on the player's page of the 2nd week, still open, live.
  for (const gone of [ids[4], ids[5]]) await expect(p.getByTestId(`series-date-${gone}`)).toHaveAttribute('data-cancelled', 'true');

  await p.context().close();
});
