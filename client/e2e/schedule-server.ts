// Playwright global setup: a league's schedule server on loopback, for the
// season sync story (the Rinkside server under test runs with
// SYNC_ALLOW_PRIVATE_NETWORKS=true, so it may fetch from 127.0.0.1).
//
// - `/fixtures/<file>` serves shared/fixtures/schedules/ as it is (beside
//   the project root; SCHEDULE_FIXTURES overrides the folder).
// - `/league-upcoming.csv` serves league.csv moved forward by whole weeks so
//   its first game is after tomorrow, scores blanked: the fixture's games
//   are in Sept–Nov 2026, and the event page takes no RSVP for a game that
//   is over. Whole weeks keep every game's weekday and local time.
//
// Its base URL goes to the tests as RINKSIDE_SCHEDULE_URL (workers start
// after global setup and inherit the runner's environment).

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const FIXTURES = process.env.SCHEDULE_FIXTURES ?? path.resolve(here, '../../../shared/fixtures/schedules');
const DAY_MS = 86_400_000;

const TYPES: Record<string, string> = {
  '.csv': 'text/csv; charset=utf-8',
  '.ics': 'text/calendar; charset=utf-8',
  '.json': 'application/json',
};

/** league.csv with every date moved `days` later and no scores. */
export function shiftCsv(csv: string, days: number): string {
  const [header = '', ...rows] = csv.split(/\r?\n/).filter((l) => l.trim() !== '');
  const cols = header.split(',');
  const date = cols.indexOf('Date');
  const goals = [cols.indexOf('Home Goals'), cols.indexOf('Away Goals')].filter((i) => i >= 0);
  if (date < 0) throw new Error(`league.csv has no Date column: ${header}`);
  const out = rows.map((row) => {
    // The fixture has no quoted fields.
    const cells = row.split(',');
    const d = new Date(`${cells[date]}T00:00:00Z`);
    cells[date] = new Date(d.getTime() + days * DAY_MS).toISOString().slice(0, 10);
    for (const g of goals) cells[g] = '';
    return cells.join(',');
  });
  return [header, ...out].join('\n') + '\n';
}

/** Whole weeks that move the fixture's first game to after tomorrow. */
export function weeksForward(csv: string, now = new Date()): number {
  const dates = csv
    .split(/\r?\n/)
    .map((l) => /^\d+,(\d{4}-\d{2}-\d{2}),/.exec(l)?.[1])
    .filter((d): d is string => Boolean(d))
    .sort();
  const first = Date.parse(`${dates[0]}T00:00:00Z`);
  const target = now.getTime() + 2 * DAY_MS;
  return Math.max(0, Math.ceil((target - first) / (7 * DAY_MS)));
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const original = fs.readFileSync(path.join(FIXTURES, 'league.csv'), 'utf8');
  const upcoming = shiftCsv(original, weeksForward(original) * 7);

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/league-upcoming.csv') {
      res.writeHead(200, { 'Content-Type': TYPES['.csv'] as string });
      res.end(upcoming);
      return;
    }
    const m = /^\/fixtures\/([\w.-]+)$/.exec(url.pathname);
    const file = m ? path.join(FIXTURES, m[1] as string) : null;
    if (file && fs.existsSync(file)) {
      res.writeHead(200, { 'Content-Type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
      fs.createReadStream(file).pipe(res);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' });
    res.end('not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  process.env.RINKSIDE_SCHEDULE_URL = `http://127.0.0.1:${port}`;

  return () => new Promise<void>((resolve) => server.close(() => resolve()));
}
