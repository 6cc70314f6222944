// Shared setup of the browser stories: people made through the dev API,
// a browser context per person, and where screenshots go.

import path from 'node:path';
import { expect, type APIRequestContext, type Browser, type Page, type TestInfo } from '@playwright/test';

/** A short unique suffix so each project and run gets its own people. */
export function suffix(testInfo: TestInfo): string {
  return `${testInfo.project.name.slice(0, 1)}${Date.now().toString(36).slice(-6)}`;
}

export interface Person {
  id: string;
  token: string;
  username: string;
}

export const auth = (p: Person) => ({ Authorization: `Bearer ${p.token}` });

/** An onboarded dev user, created through the API (the page's, or a story's own server's `APIRequestContext`). */
export async function createPerson(page: Page | APIRequestContext, username: string, firstName: string, lastName: string): Promise<Person> {
  const api = 'request' in page ? page.request : page;
  const res = await api.post('/api/v1/dev/token', { data: { clerkId: `dev_${username}`, username, firstName, lastName } });
  expect(res.ok()).toBeTruthy();
  const { token, user } = (await res.json()) as { token: string; user: { id: string } };
  const headers = { Authorization: `Bearer ${token}` };
  expect((await api.post('/api/v1/me/legal', { headers, data: { legalVersion: '2026-11' } })).ok()).toBeTruthy();
  expect((await api.patch('/api/v1/me', { headers, data: { profileTypes: ['PLAYER'], onboardingComplete: true } })).ok()).toBeTruthy();
  return { id: user.id, token, username };
}

/** POST through the API as `person`, expecting 201; answers the body. */
export async function create<T>(page: Page, person: Person, url: string, data: unknown): Promise<T> {
  const res = await page.request.post(url, { headers: auth(person), data });
  expect(res.status(), `${url}: ${await res.text()}`).toBe(201);
  return (await res.json()) as T;
}

/**
 * Lets `person` collect payments the one way there is (docs/sides-and-bill.md): they run a rink
 * of their own, and as its staff turn their own collection on.
 */
export async function letCollect(page: Page, person: Person, rinkName: string): Promise<void> {
  await create(page, person, '/api/v1/facilities', { name: rinkName, timezone: 'America/Toronto' });
  const res = await page.request.put(`/api/v1/users/${person.id}/payment-collection`, { headers: auth(person), data: { enabled: true } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

/**
 * A separate browser context (own storage, own socket) signed in as `person`, sized like the project;
 * on the project's server, or on `baseURL` (a story's own server).
 */
export async function openAs(browser: Browser, testInfo: TestInfo, person: Person, baseURL?: string): Promise<Page> {
  const use = testInfo.project.use;
  const context = await browser.newContext({
    baseURL: baseURL ?? use.baseURL,
    viewport: use.viewport,
    deviceScaleFactor: use.deviceScaleFactor,
    isMobile: use.isMobile,
    hasTouch: use.hasTouch,
    userAgent: use.userAgent,
  });
  await context.addInitScript((t) => window.localStorage.setItem('rinkside.devToken', t), person.token);
  return context.newPage();
}

/** A screenshot's path in the project's output folder. */
export const shot = (testInfo: TestInfo, name: string) => path.join(testInfo.project.outputDir, `${name}-${testInfo.project.name}.png`);
