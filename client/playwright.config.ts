// End-to-end tests against the real server binary with dev auth and a fresh
// SQLite database per run. Browsers are not downloaded: we drive the system
// Chromium. `npm run e2e` builds the client and the server first.

import { defineConfig, devices } from '@playwright/test';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
// E2E_PORT lets two runs share a machine (e.g. two developers' worktrees).
const PORT = Number(process.env.E2E_PORT ?? 8091);
const BASE_URL = `http://127.0.0.1:${PORT}`;

// Computed once in the runner and inherited by workers (the config is
// evaluated in each process, and Date.now() would differ).
process.env.RINKSIDE_E2E_DB ??= path.join(os.tmpdir(), `rinkside-e2e-${Date.now()}-${process.pid}.db`);

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};

export default defineConfig({
  testDir: './e2e',
  outputDir: './test-results',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // A league's schedule on loopback for the season sync story (e2e/schedule-server.ts).
  globalSetup: './e2e/schedule-server.ts',
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: chromium,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'phone',
      use: {
        viewport: devices['Pixel 7'].viewport,
        deviceScaleFactor: devices['Pixel 7'].deviceScaleFactor,
        isMobile: true,
        hasTouch: true,
        userAgent: devices['Pixel 7'].userAgent,
      },
    },
  ],
  webServer: {
    command: path.resolve(here, '../target/debug/rinkside'),
    cwd: here,
    url: `${BASE_URL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      DATABASE_URL: `sqlite://${process.env.RINKSIDE_E2E_DB}`,
      BIND: `127.0.0.1:${PORT}`,
      AUTH_MODE: 'dev',
      CLIENT_DIST: path.resolve(here, 'dist'),
      RUST_LOG: 'warn',
      // The sync story's schedule is served from 127.0.0.1, which the fetcher refuses otherwise.
      SYNC_ALLOW_PRIVATE_NETWORKS: 'true',
    },
  },
});
