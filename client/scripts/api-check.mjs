// Fails when src/lib/api/schema.d.ts is not what openapi-typescript makes
// of the committed document src/lib/api/openapi.json: it generates into a
// temporary file and compares (docs/openapi.md › The client's types). Fix
// with `npm run api:generate`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const committed = 'src/lib/api/schema.d.ts';
const dir = mkdtempSync(join(tmpdir(), 'api-check-'));
try {
  const fresh = join(dir, 'schema.d.ts');
  execFileSync('openapi-typescript', ['src/lib/api/openapi.json', '-o', fresh], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (readFileSync(fresh, 'utf8') !== readFileSync(committed, 'utf8')) {
    console.error(`${committed} is not generated from src/lib/api/openapi.json: run \`npm run api:generate\` in client/.`);
    process.exit(1);
  }
  console.log(`${committed} is up to date with src/lib/api/openapi.json.`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
