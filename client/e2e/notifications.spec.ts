// A waitlisted skater turns on browser alerts from the event page, moves on
// to another tab; the organiser removes the skater ahead; the promotion
// arrives in the background tab: the bell counts it and the browser's
// Notification API is called (stubbed in the page to observe it). Opening
// it from the bell goes to the event, where the skater is in.

import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix } from './people';

/** A stand-in for the browser's Notification API that records what it is asked to show. */
async function stubNotifications(page: Page) {
  await page.context().addInitScript(() => {
    const w = window as unknown as { __alerts: { title: string; body?: string }[]; __asked: number; Notification: unknown };
    w.__alerts = [];
    w.__asked = 0;
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static async requestPermission(): Promise<NotificationPermission> {
        w.__asked += 1;
        FakeNotification.permission = 'granted';
        return 'granted';
      }
      onclick: (() => void) | null = null;
      constructor(title: string, opts?: { body?: string }) {
        w.__alerts.push({ title, body: opts?.body });
      }
      close() {}
    }
    w.Notification = FakeNotification;
    // Headless Chromium reports every tab as visible, even one behind
    // another: the test says when this one is in the background.
    const real = Object.getOwnPropertyDescriptor(Document.prototype, 'visibilityState');
    Object.defineProperty(Document.prototype, 'visibilityState', {
      configurable: true,
      get(this: Document) {
        return (window as unknown as { __background?: boolean }).__background ? 'hidden' : (real?.get?.call(this) ?? 'visible');
      },
    });
  });
}

/** Puts Rinkside's tab behind another one (and says so to the page, see above). */
async function sendToBackground(page: Page): Promise<Page> {
  const other = await page.context().newPage();
  await other.goto('about:blank');
  await other.bringToFront();
  await page.evaluate(() => {
    (window as unknown as { __background: boolean }).__background = true;
    document.dispatchEvent(new Event('visibilitychange'));
  });
  return other;
}

async function bringBack(page: Page) {
  await page.bringToFront();
  await page.evaluate(() => {
    (window as unknown as { __background: boolean }).__background = false;
    document.dispatchEvent(new Event('visibilitychange'));
  });
}

const alerts = (page: Page) => page.evaluate(() => (window as unknown as { __alerts: { title: string }[] }).__alerts);

test('promoted from the waitlist while the tab is in the background: the bell counts it and the browser shows it', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const organiser = await createPerson(page, `norg${id}`, 'Olive', 'Organiser');
  const alice = await createPerson(page, `nali${id}`, 'Alice', 'Ames');
  const bruno = await createPerson(page, `nbru${id}`, 'Bruno', 'Berg');
  const title = `Tuesday pickup ${id}`;
  const start = new Date(Date.now() + 3 * 24 * 3_600_000).toISOString();
  const event = await create<{ id: string }>(page, organiser, '/api/v1/events', { title, startDate: start, eventType: 'OTHER', maxSkaters: 1 });
  for (const who of [alice, bruno]) {
    const res = await page.request.put(`/api/v1/events/${event.id}/rsvp`, { headers: auth(who), data: { action: 'ATTENDING' } });
    expect(res.ok()).toBeTruthy();
  }

  // Bruno is second in line; the event page offers alerts, and he takes them (never asked on load).
  const b = await openAs(browser, testInfo, bruno);
  await stubNotifications(b);
  await b.goto(`/events/${event.id}`);
  await expect(b.getByTestId('rsvp-status')).toHaveText('Waitlisted #1');
  await expect(b.getByTestId('connection-indicator')).toHaveAttribute('data-state', 'live');
  expect(await b.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(0);
  await b.getByTestId('alerts-enable').click();
  await expect(b.getByTestId('alerts-offer')).toHaveCount(0);
  expect(await b.evaluate(() => (window as unknown as { __asked: number }).__asked)).toBe(1);
  await expect(b.getByTestId('bell-count')).toHaveCount(0);

  // He moves on to another tab: Rinkside's is in the background.
  await sendToBackground(b);
  expect(await b.evaluate(() => document.visibilityState)).toBe('hidden');

  // The organiser takes Alice off the list from the event page.
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), organiser.token);
  await page.goto(`/events/${event.id}`);
  await page.getByTestId(`remove-${alice.id}`).click();
  await page.getByTestId(`remove-${alice.id}`).click();
  await expect(page.getByTestId(`attendee-${bruno.id}`)).toBeVisible();

  // In the background tab: the bell counts it and the browser was asked to show it.
  await expect(b.getByTestId('bell-count')).toHaveText('1');
  await expect.poll(() => alerts(b)).toEqual([expect.objectContaining({ title: `You're in: ${title}` })]);

  // Back to Rinkside: the bell's panel has it, and opening it goes to the event, where he is in.
  await bringBack(b);
  await b.getByTestId('bell').click();
  const row = b.getByTestId('bell-panel').getByTestId('notification');
  await expect(row).toHaveAttribute('data-type', 'WAITLIST_PROMOTED');
  await expect(row).toContainText(`You're in: ${title}`);
  await b.screenshot({ path: shot(testInfo, 'notifications-bell') });
  await row.click();
  await expect(b.getByTestId('rsvp-status')).toHaveText("You're in");
  await expect(b.getByTestId('bell-count')).toHaveCount(0);

  // Alice heard she was taken off; the history page lists it.
  const a = await openAs(browser, testInfo, alice);
  await a.goto('/notifications');
  await expect(a.getByTestId('notification-history').getByTestId('notification')).toHaveAttribute('data-type', 'REMOVED_FROM_EVENT');
  await expect(a.getByTestId('bell-count')).toHaveText('1');
  await a.getByTestId('page-mark-all-read').click();
  await expect(a.getByTestId('bell-count')).toHaveCount(0);
  expect(await alerts(b)).toHaveLength(1);
});
