// The organiser's pickup night (docs/pickup-night.md) end to end, on a
// weekly pickup that starts three minutes from now, so every rule is already
// in effect when it is set: the organiser makes Rita a regular on the
// series page and keeps the places for regulars until a minute before puck
// drop; Nico (not a regular) asks first and still waits behind Rita, who
// is marked Regular;
// the organiser locks RSVPs (already past: an hour before a start three
// minutes away); Fay drops out late, Rita takes her place ahead of Nico,
// and Fay can no longer get back in. At the rink the organiser taps Gus in
// and Rita checks in by the QR code's link; once the puck has dropped the
// series' record says who came and who dropped late.

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix, type Person } from './people';

/** How far ahead the pickup starts: room for the story before puck drop, short enough to wait for. */
const START_IN_MS = 180_000;

async function rsvp(page: Page, person: Person, eventId: string, position: string) {
  const res = await page.request.put(`/api/v1/events/${eventId}/rsvp`, { headers: auth(person), data: { action: 'ATTENDING', position } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

interface RecordRow {
  userId: string;
  attended: number;
  lateDropOuts: number;
  noShows: number;
}

test('regulars first, a lock, a late drop-out and check-in at the rink; the record afterwards', async ({ page, browser }, testInfo) => {
  test.setTimeout(START_IN_MS + 120_000);
  const id = suffix(testInfo);
  const organiser = await createPerson(page, `on${id}`, 'Olive', 'Nightly');
  const rita = await createPerson(page, `rr${id}`, 'Rita', 'Regular');
  const nico = await createPerson(page, `nn${id}`, 'Nico', 'Newcomer');
  const fay = await createPerson(page, `fl${id}`, 'Fay', 'Late');
  const gus = await createPerson(page, `gs${id}`, 'Gus', 'Steady');

  // A weekly pickup of one week so far, two skater places, starting soon.
  const start = new Date(Date.now() + START_IN_MS);
  const title = `Late-night pickup ${id}`;
  const event = await create<{ id: string; seriesId: string }>(page, organiser, '/api/v1/events', {
    title,
    eventType: 'OTHER',
    startDate: start.toISOString(),
    endDate: new Date(start.getTime() + 60 * 60_000).toISOString(),
    maxSkaters: 2,
    maxGoalies: 1,
    repeat: { frequency: 'WEEKLY', until: start.toISOString().slice(0, 10), timeZone: 'UTC' },
  });
  expect(event.seriesId).toBeTruthy();
  const eventPath = `/events/${event.id}`;
  // Fay and Gus were in before any rule.
  await rsvp(page, fay, event.id, 'LEFT_WING');
  await rsvp(page, gus, event.id, 'CENTER');

  // The organiser makes Rita a regular on the series page.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), organiser.token);
  await page.goto(`/series/${event.seriesId}`);
  await expect(page.getByTestId('series-page')).toContainText(title);
  await page.getByTestId('regular-picker').click();
  await page.getByTestId('regular-picker').fill(rita.username);
  await page.getByRole('option', { name: new RegExp(`Rita Regular @${rita.username}`) }).click();
  await page.getByTestId('add-regular').click();
  await expect(page.getByTestId(`regular-row-${rita.id}`)).toContainText('Rita Regular');
  await expect(page.getByTestId('series-rules-form')).toBeVisible();
  await page.screenshot({ path: shot(testInfo, 'pickup-series-page'), fullPage: true });

  // On the event page: regulars first until a minute before puck drop (0.02 h; 0 would mean open to all at once).
  await page.goto(eventPath);
  await expect(page.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId(`event-regular-${rita.id}`)).toBeVisible();
  await page.getByTestId('event-rules-regularsFirst').fill('0.02');
  await expect(page.getByTestId('event-rules-preview')).toContainText('Opens to all');
  await page.getByTestId('event-rules-save').click();
  await expect(page.getByTestId('event-rules-saved')).toBeVisible();

  // Nico asks first: not a regular, so he waits, and is told why.
  const n = await openAs(browser, testInfo, nico);
  await n.goto(eventPath);
  await expect(n.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(n.getByTestId('rules-notice-regulars')).toContainText('then open to all · until then you join the waitlist, behind the regulars');
  await n.getByTestId('rsvp-in').click();
  await expect(n.getByTestId('rsvp-status')).toHaveText('Waitlisted #1');

  // Rita asks after him and goes ahead of him: #1 among regulars.
  const r = await openAs(browser, testInfo, rita);
  await r.goto(eventPath);
  await expect(r.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(r.getByTestId('rules-notice-regulars')).toContainText("you're a regular");
  await r.getByTestId('rsvp-in').click();
  await expect(r.getByTestId('rsvp-status')).toHaveText('Waitlisted #1');
  await expect(r.getByTestId('rules-notice-regulars')).toContainText(/^Regulars until .+, then open to all · you are #1 among regulars$/);
  await expect(n.getByTestId('rsvp-status')).toHaveText('Waitlisted #2');
  await expect(n.getByTestId('rules-notice-regulars')).toContainText('you are #2 in line; regulars go first until then');
  // Everyone's waitlist marks her.
  await expect(page.getByTestId(`regular-${rita.id}`)).toHaveText('Regular');
  await expect(page.getByTestId(`regular-${nico.id}`)).toHaveCount(0);
  await r.screenshot({ path: shot(testInfo, 'pickup-regular-waiting'), fullPage: true });

  // The organiser locks RSVPs an hour before puck drop: already past.
  await page.getByTestId('event-rules-cutoff').fill('1');
  await expect(page.getByTestId('event-rules-preview')).toContainText('RSVPs lock');
  await page.getByTestId('event-rules-save').click();
  await expect(page.getByTestId('event-rules-saved')).toBeVisible();
  await expect(page.getByTestId('rules-notice-lock')).toContainText(/^RSVPs closed .+ — as an organiser you can still answer$/);
  await page.screenshot({ path: shot(testInfo, 'pickup-organiser-rules'), fullPage: true });

  // Fay drops out (late: within a day of puck drop), from her own page; the lock lets her.
  const f = await openAs(browser, testInfo, fay);
  await f.goto(eventPath);
  await expect(f.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  await expect(f.getByTestId('rules-notice-lock')).toContainText(/^RSVPs closed .+ — you can still drop out$/);
  await f.getByTestId('rsvp-out').click();
  await f.getByTestId('rsvp-give-up').click();
  await expect(f.getByTestId('rsvp-status')).toHaveText("You're out");

  // Her place goes to Rita, the regular, ahead of Nico who asked first.
  await expect(r.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(n.getByTestId('rsvp-status')).toHaveText('Waitlisted #1');
  await expect(page.getByTestId(`attendee-${rita.id}`)).toBeVisible();

  // Fay cannot get back in: the button says so, and the server refuses it too.
  await expect(f.getByTestId('rules-notice-lock')).toContainText(/^RSVPs closed .+ — ask the organiser$/);
  await expect(f.getByTestId('rsvp-in')).toBeDisabled();
  await expect(f.getByTestId('rsvp-in')).toHaveText('RSVPs closed');
  const refused = await page.request.put(`/api/v1/events/${event.id}/rsvp`, { headers: auth(fay), data: { action: 'ATTENDING', position: 'LEFT_WING' } });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/closed/i);
  await f.screenshot({ path: shot(testInfo, 'pickup-locked-out'), fullPage: true });
  // Nico, still waiting, may still leave.
  await n.reload();
  await expect(n.getByTestId('rules-notice-lock')).toContainText('you can still drop out');

  // At the rink: the organiser's check-in card, with the code and its QR code.
  const card = page.getByTestId('check-in');
  await expect(card.getByTestId('check-in-count')).toHaveText('0 of 2 checked in');
  const code = (await card.getByTestId('check-in-code').textContent())?.trim() ?? '';
  expect(code).toMatch(/^[A-Z2-9]{8}$/);
  const link = await card.getByTestId('check-in-qr').getAttribute('data-text');
  expect(link).toBe(`${new URL(page.url()).origin}/events/${event.id}/check-in?code=${code}`);
  // One tap checks Gus in.
  await card.getByTestId(`check-in-${gus.id}`).click();
  await expect(card.getByTestId(`check-in-${gus.id}`)).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByTestId('check-in-count')).toHaveText('1 of 2 checked in');

  // Rita first types a wrong code by hand: refused, with the server's reason beside the field.
  await r.goto(`/events/${event.id}/check-in`);
  await r.getByTestId('check-in-code-input').fill('wrong-234');
  await expect(r.getByTestId('check-in-code-input')).toHaveValue('WRONG234');
  await r.getByTestId('check-in-submit').click();
  await expect(r.getByTestId('check-in-form')).toContainText(/that is not this event's check-in code/i);
  await expect(card.getByTestId('check-in-count')).toHaveText('1 of 2 checked in');

  // Then she opens the QR code's link on her phone: checked in at once, and the organiser's card follows live.
  await r.goto(link ?? '');
  await expect(r.getByTestId('check-in-done')).toContainText("You're checked in");
  await r.screenshot({ path: shot(testInfo, 'pickup-checked-in'), fullPage: true });
  await expect(card.getByTestId(`check-in-${rita.id}`)).toHaveAttribute('aria-pressed', 'true');
  await expect(card.getByTestId('check-in-count')).toHaveText('2 of 2 checked in');
  await card.scrollIntoViewIfNeeded();
  await page.screenshot({ path: shot(testInfo, 'pickup-check-in-card'), fullPage: true });

  // Nico, on the waitlist, has nothing to check in to.
  await n.goto(`/events/${event.id}/check-in`);
  await expect(n.getByTestId('check-in-not-attending')).toContainText("You're on the waitlist");

  // Everything so far happened before puck drop.
  expect(Date.now()).toBeLessThan(start.getTime());

  // After puck drop, the series' record: who came, who dropped late.
  await page.waitForTimeout(Math.max(0, start.getTime() - Date.now()) + 2_000);
  const recordRes = await page.request.get(`/api/v1/event-series/${event.seriesId}/record`, { headers: auth(organiser) });
  expect(recordRes.ok(), await recordRes.text()).toBeTruthy();
  const record = ((await recordRes.json()) as { items: RecordRow[] }).items;
  const row = (p: Person) => record.find((x) => x.userId === p.id);
  expect(row(rita)).toMatchObject({ attended: 1, lateDropOuts: 0 });
  expect(row(gus)).toMatchObject({ attended: 1, lateDropOuts: 0 });
  expect(row(fay)).toMatchObject({ attended: 0, lateDropOuts: 1 });
  expect(row(nico)?.attended ?? 0).toBe(0);
  // The organiser reads it on the series page; Fay sees only her own line.
  await page.goto(`/series/${event.seriesId}`);
  await expect(page.getByTestId(`record-${fay.id}`)).toContainText('1');
  await expect(page.getByTestId(`record-${rita.id}`)).toBeVisible();
  await f.goto(`/series/${event.seriesId}`);
  await expect(f.getByTestId('series-record')).toContainText(/late/i);
  await expect(f.getByTestId(`record-${rita.id}`)).toHaveCount(0);

  for (const other of [n, r, f]) await other.context().close();
});
