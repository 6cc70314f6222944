// A Rinkside server of the test's own, on its own port and SQLite file, so a
// story can kill it and start it again (the shared server of
// playwright.config.ts must stay up for the other specs). Same binary, same
// dev auth and client build as the shared one.

import { spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const BINARY = path.resolve(here, '../../target/debug/rinkside');
/** How long a debug build may take to answer /healthz after a start. */
const START_TIMEOUT_MS = 60_000;

/** A port nobody listens on now (the OS picks it; we bind it again at once). */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export class OwnServer {
  readonly port: number;
  readonly baseURL: string;
  readonly dbPath: string;
  private child: ChildProcess | null = null;

  private constructor(port: number) {
    this.port = port;
    this.baseURL = `http://127.0.0.1:${port}`;
    this.dbPath = path.join(os.tmpdir(), `rinkside-e2e-own-${port}-${process.pid}-${Date.now()}.db`);
  }

  /** A server on a fresh port and database, started and answering. */
  static async start(): Promise<OwnServer> {
    const server = new OwnServer(await freePort());
    await server.startAgain();
    return server;
  }

  /** Start the process (same port, same database) and wait for /healthz. */
  async startAgain(): Promise<void> {
    if (this.child) throw new Error('already running');
    const child = spawn(BINARY, [], {
      cwd: here,
      stdio: ['ignore', 'ignore', 'pipe'],
      env: {
        ...process.env,
        DATABASE_URL: `sqlite://${this.dbPath}`,
        BIND: `127.0.0.1:${this.port}`,
        AUTH_MODE: 'dev',
        CLIENT_DIST: path.resolve(here, '../dist'),
        RUST_LOG: 'warn',
      },
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr = (stderr + d.toString()).slice(-4000);
    });
    this.child = child;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`rinkside exited with ${child.exitCode}: ${stderr}`);
      try {
        const res = await fetch(`${this.baseURL}/healthz`);
        if (res.ok) return;
      } catch {
        // Not listening yet.
      }
      if (Date.now() > deadline) throw new Error(`rinkside did not answer /healthz within ${START_TIMEOUT_MS} ms: ${stderr}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  /** Kill the process at once (SIGKILL: a crash, no graceful goodbye to sockets) and wait for it to go. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  }
}
