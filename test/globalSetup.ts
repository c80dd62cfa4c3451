/**
 * Vitest's global setup: make sure `dist/` (the built package, which the command-line, package and
 * example tests run) is there and no older than its inputs, so that `npx vitest run` works on a fresh
 * clone. When an entry of tsup.config.ts is missing from `dist/`, or older than the newest file under
 * `src/` (or the build's configuration), it runs `tsup --silent` once, saying so in one line; a
 * failed build fails the run at once with tsup's output. `npm test` builds first, so this finds
 * `dist/` fresh and does nothing.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsupConfig from '../tsup.config.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of a file under `dir`, walked with an explicit stack. */
function newestUnder(dir: string): number {
  let newest = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop()!;
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** The modification time of `path`, or `undefined` when it does not exist. */
function mtimeOf(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** Why `dist/` must be built, or `undefined` when it is up to date. */
export function staleReason(): string | undefined {
  const config = Array.isArray(tsupConfig) ? tsupConfig[0] : tsupConfig;
  const entries = Object.keys((config as { entry: Record<string, string> }).entry);
  const inputs = Math.max(
    newestUnder(join(root, 'src')),
    mtimeOf(join(root, 'tsup.config.ts')) ?? 0,
    mtimeOf(join(root, 'package.json')) ?? 0,
  );
  for (const entry of entries) {
    const built = mtimeOf(join(root, 'dist', `${entry}.js`));
    if (built === undefined) return `dist/${entry}.js is missing`;
    if (built < inputs) return `dist/${entry}.js is older than src/`;
  }
  return undefined;
}

export default function setup(): void {
  const reason = staleReason();
  if (reason === undefined) return;
  process.stderr.write(`test/globalSetup.ts: ${reason}; building with \`npx tsup --silent\`…\n`);
  const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const result = spawnSync(process.execPath, [tsup, '--silent'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `test/globalSetup.ts: \`npx tsup --silent\` failed (${result.error?.message ?? `exit ${result.status}`}); run it yourself to see why, then run the tests again.\n${result.stdout}${result.stderr}`,
    );
}
