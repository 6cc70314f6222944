// Issue 26: at 1280 px "My schedule" and "Subs & teams" wrapped onto two
// lines in the top bar. Every link stays on one line, in one row, clear of
// the connection pill, bell and avatar at 1024 px and wider; narrower top
// bars (down to 721 px, where the phone's bottom bar takes over) scroll the
// row sideways instead.

import { expect, test } from '@playwright/test';
import { createPerson, suffix } from './people';

test('the top bar keeps every link on one line, all in view down to 1024 px and scrolling sideways below', async ({ page }, testInfo) => {
  test.skip(testInfo.project.name === 'phone', 'phones have the bottom bar instead');
  const me = await createPerson(page, `tb${suffix(testInfo)}`, 'Tia', 'Topbar');
  await page.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), me.token);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' }).first();
  const links = nav.getByRole('link');
  // Home, My schedule, Events, Messages, People, Facilities, Teams, Subs & teams.
  await expect(links).toHaveCount(8);
  await expect(page.getByTestId('connection-indicator')).toBeVisible();

  for (const width of [1280, 1024, 900, 721]) {
    await page.setViewportSize({ width, height: 800 });
    const right = await page.locator('.topbar__right').boundingBox();
    const boxes = await links.evaluateAll((els) =>
      els.map((el) => {
        const r = el.getBoundingClientRect();
        return { text: el.textContent ?? '', top: r.top, height: r.height, right: r.right, lines: el.getClientRects().length };
      }),
    );
    const navBox = await nav.boundingBox();
    expect(navBox?.height ?? 0, `the nav at ${width} px is one row`).toBeLessThan(45);
    expect((navBox?.x ?? 0) + (navBox?.width ?? 0), `the nav at ${width} px is clear of the right-hand buttons`).toBeLessThanOrEqual((right?.x ?? 0) + 1);
    const one = boxes[0];
    for (const b of boxes) {
      // A wrapped label doubles the link's height (about 37 px on one line).
      expect(b.height, `${b.text} at ${width} px is one line`).toBeLessThan(45);
      expect(Math.abs(b.top - (one?.top ?? 0)), `${b.text} at ${width} px is in the row`).toBeLessThan(2);
      // From 1024 px up every link is in view; below, the row scrolls.
      if (width >= 1024) expect(b.right, `${b.text} at ${width} px is clear of the right-hand buttons`).toBeLessThanOrEqual((right?.x ?? 0) + 1);
    }
  }
});
