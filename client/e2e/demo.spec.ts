// The first run: `DEMO=1` (what `make run` sets) on an empty database builds
// a rink, a league and a pickup, and keeps a game going. Someone opens the
// arena display the log points at and watches the score move by itself.

import { test, expect } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Starts a demo server of its own and resolves with its URL and the live game's id from its log. */
async function startDemo(): Promise<{ child: ChildProcess; base: string; gameId: string }> {
  const port = await freePort();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rinkside-demo-'));
  const child = spawn(path.resolve(here, '../../target/debug/rinkside'), [], {
    env: {
      ...process.env,
      DATABASE_URL: `sqlite://${path.join(dir, 'demo.db')}`,
      BIND: `127.0.0.1:${port}`,
      AUTH_MODE: 'dev',
      CLIENT_DIST: path.resolve(here, '../dist'),
      RUST_LOG: 'info,tracing_actix_web=warn',
      DEMO: '1',
      // A whole game in 24 s (3 to 7 goals): the score moves while the display watches.
      DEMO_GAME_SECONDS: '24',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const gameId = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no live demo game within 30 s:\n${output}`)), 30_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const found = /live game at \/games\/([0-9a-f-]{36})/.exec(output);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout?.on('data', read);
    child.stderr?.on('data', read);
    child.on('exit', (code) => reject(new Error(`the demo server exited (${code}):\n${output}`)));
  });
  expect(output).toContain(`Rinkside is ready: open http://127.0.0.1:${port}`);
  return { child, base: `http://127.0.0.1:${port}`, gameId };
}

test('the demo game moves on the arena display without anyone scoring', async ({ page }) => {
  const demo = await startDemo();
  try {
    await page.goto(`${demo.base}/display/game/${demo.gameId}`);
    await expect(page.getByTestId('display-home-name')).toHaveText(/Ice Owls/);
    await expect(page.getByTestId('display-away-name')).toHaveText(/Blue Liners/);
    const total = async () =>
      Number(await page.getByTestId('display-home-score').innerText()) +
      Number(await page.getByTestId('display-away-score').innerText());
    const before = await total();
    // At least three goals in a 24-second game: the score moves within seconds.
    await expect.poll(total, { timeout: 25_000 }).toBeGreaterThan(before);
    await expect(page.getByTestId('display-last-goal')).toBeVisible();

    // The rest of the demo is there: the league and the pickup one skater short.
    const signIn = await page.request.post(`${demo.base}/api/v1/dev/token`, {
      data: { clerkId: 'dev_demo_visitor', username: 'demo_visitor' },
    });
    const { token } = (await signIn.json()) as { token: string };
    const events = await page.request.get(`${demo.base}/api/v1/events`, { headers: { authorization: `Bearer ${token}` } });
    const pickup = ((await events.json()) as { items: { id: string; title: string }[] }).items.find(
      (e) => e.title === 'Tuesday night pickup',
    );
    expect(pickup).toBeTruthy();
    const attendees = await page.request.get(`${demo.base}/api/v1/events/${pickup!.id}/attendees`, {
      headers: { authorization: `Bearer ${token}` },
    });
    // 9 skaters and both goalies in, a third goalie waiting; demo people have names, not handles.
    const doc = (await attendees.json()) as {
      attending: { displayName: string; position: string }[];
      waitlist: { displayName: string; position: string }[];
    };
    expect(doc.attending.filter((a) => a.position === 'GOALIE')).toHaveLength(2);
    expect(doc.attending).toHaveLength(11);
    expect(doc.waitlist.map((w) => w.position)).toEqual(['GOALIE']);
    for (const person of [...doc.attending, ...doc.waitlist]) expect(person.displayName).toMatch(/^\S+ \S+$/);
  } finally {
    demo.child.kill('SIGTERM');
  }
});
