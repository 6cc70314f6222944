import { expect, test, type Page } from '@playwright/test';
import { auth, create, createPerson, openAs, shot, suffix, type Person } from './people';

async function follow(page: Page, who: Person, url: string) {
  const res = await page.request.put(url, { headers: auth(who) });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(204);
}

test('a person posts and joins a team; a follower sees both live on the home feed, joins aggregated, then an edit in place and a delete, without reloading', async ({ page, browser }, testInfo) => {
  const id = suffix(testInfo);
  const alice = await createPerson(page, `ali${id}`, 'Alice', 'Ames');
  const carol = await createPerson(page, `car${id}`, 'Carol', 'Cole');
  const bob = await createPerson(page, `bob${id}`, 'Bob', 'Burr');

  // Alice's rink, season, team and roster, through the API.
  const facility = await create<{ id: string }>(page, alice, '/api/v1/facilities', { name: `Polar Arena ${id}`, timezone: 'America/Edmonton' });
  const season = await create<{ id: string }>(page, alice, `/api/v1/facilities/${facility.id}/seasons`, {
    name: `Winter ${id}`,
    startDate: '2026-09-01T06:00:00Z',
    endDate: '2027-04-01T05:59:59Z',
    isActive: true,
  });
  const team = await create<{ id: string }>(page, alice, '/api/v1/teams', { name: `Ice Owls ${id}`, facilityId: facility.id });
  const roster = await create<{ id: string }>(page, alice, '/api/v1/rosters', { teamId: team.id, seasonId: season.id, name: `Owls ${id}`, status: 'ACTIVE' });

  // Bob follows Alice and her team; a few older posts give his feed some length.
  await follow(page, bob, `/api/v1/users/${alice.id}/follow`);
  await follow(page, bob, `/api/v1/teams/${team.id}/follow`);
  for (let i = 1; i <= 4; i++) await create(page, alice, '/api/v1/posts', { content: `Warm-up post ${i} ${id}` });
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(2, 0, 0, 0);
  await create(page, alice, '/api/v1/events', { title: `Friday pickup ${id}`, startDate: start.toISOString(), eventType: 'PRACTICE', maxSkaters: 12, maxGoalies: 2 });

  // Bob's home: the feed is the main column, newest first.
  const b = await openAs(browser, testInfo, bob);
  await b.goto('/');
  const feed = b.getByTestId('feed-list');
  await expect(feed.getByTestId('feed-item').first()).toContainText(`Alice Ames created Friday pickup ${id}`);
  await expect(feed.getByTestId('spots-left').first()).toContainText('12 skater spots left');

  // Alice posts from her browser, with a link and some markup.
  const a = await openAs(browser, testInfo, alice);
  await a.goto('/');
  const text = `Ice is fresh tonight ${id} — sign up at https://rinkside.example/ice <b>now</b>`;
  await expect(a.getByTestId('composer-submit')).toBeDisabled();
  await a.getByLabel('New post').fill(text);
  await a.getByTestId('composer-submit').click();
  await expect(a.getByLabel('New post')).toHaveValue('');
  await expect(a.getByTestId('posted-note')).toBeVisible();
  // Her own post is in her own feed too, live (issue 26).
  await expect(a.getByTestId('feed-item').first()).toContainText('Alice Ames posted');

  // Bob, at the top of his page, sees it slide in without reloading.
  const top = feed.getByTestId('feed-item').first();
  await expect(top).toContainText('Alice Ames posted');
  await expect(top.getByTestId('post-text')).toHaveText(text);
  await expect(top.getByRole('link', { name: 'https://rinkside.example/ice' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(top.locator('b')).toHaveCount(0);

  // Alice joins her team's roster; Bob sees it live.
  await create(page, alice, `/api/v1/rosters/${roster.id}/players`, { userId: alice.id });
  // Bob follows the team too: still one card per join (issue 26), no roster-change card beside it.
  const joins = feed.locator('[data-type="USER_JOINED_TEAM"]');
  await expect(joins.first()).toContainText(`Alice Ames joined Ice Owls ${id}`);
  await expect(feed.locator('[data-type="TEAM_ROSTER_UPDATED"]')).toHaveCount(0);

  // Carol joins the same roster: one item, aggregated, not two.
  await create(page, alice, `/api/v1/rosters/${roster.id}/players`, { userId: carol.id });
  await expect(joins.first()).toContainText(`Carol Cole and Alice Ames joined Ice Owls ${id}`);
  await expect(joins).toHaveCount(1);
  await b.screenshot({ path: shot(testInfo, 'feed-home'), fullPage: true, animations: 'disabled' });

  // Scrolled down, the next push waits behind the pill.
  await b.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
  await b.waitForFunction(() => window.scrollY > 200);
  await create(page, alice, '/api/v1/posts', { content: `While you were scrolling ${id}` });
  const pill = b.getByTestId('new-items-pill');
  await expect(pill).toHaveText(/1 new/);
  await expect(feed).not.toContainText(`While you were scrolling ${id}`);
  await b.screenshot({ path: shot(testInfo, 'feed-pill'), animations: 'disabled' });
  await pill.click();
  await expect(pill).toBeHidden();
  await expect(feed.getByTestId('feed-item').first()).toContainText(`While you were scrolling ${id}`);
  await b.waitForFunction(() => window.scrollY < 10);

  // Alice's profile lists her posts, and she can edit one.
  await a.goto(`/users/${alice.id}`);
  const posts = a.getByTestId('user-posts');
  await expect(posts.getByTestId('post-row').first()).toContainText(`While you were scrolling ${id}`);
  await expect(posts.getByTestId('post-row')).toHaveCount(6);
  await a.screenshot({ path: shot(testInfo, 'profile-posts'), fullPage: true });
  const row = posts.getByTestId('post-row').first();
  await row.getByRole('button', { name: 'Edit post' }).click();
  await row.getByRole('textbox', { name: 'Edit post' }).fill(`Edited ${id}`);
  await row.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText(`Edited ${id}`);
  await expect(row).toContainText('edited');

  // Bob, still on his feed, sees the edit in place without reloading.
  const edited = feed.getByTestId('feed-item').first();
  await expect(edited.getByTestId('post-text')).toHaveText(`Edited ${id}`);

  // Alice deletes an older post; it leaves Bob's open feed, the rest stays put.
  await expect(feed).toContainText(`Warm-up post 4 ${id}`);
  const warm = posts.getByTestId('post-row').filter({ hasText: `Warm-up post 4 ${id}` });
  await warm.getByRole('button', { name: 'Delete' }).click();
  await warm.getByRole('button', { name: 'Delete?' }).click();
  await expect(posts.getByTestId('post-row')).toHaveCount(5);
  await expect(feed).not.toContainText(`Warm-up post 4 ${id}`);
  await expect(feed).toContainText(`Warm-up post 3 ${id}`);
  await expect(feed.getByTestId('feed-item').first().getByTestId('post-text')).toHaveText(`Edited ${id}`);

  // Bob's own profile shows the composer only to him, and no edit buttons on Alice's posts.
  await b.goto(`/users/${alice.id}`);
  await expect(b.getByTestId('user-posts').getByTestId('post-row').first()).toBeVisible();
  await expect(b.getByTestId('composer')).toHaveCount(0);
  await expect(b.getByRole('button', { name: 'Edit post' })).toHaveCount(0);
});
