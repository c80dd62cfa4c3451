#!/usr/bin/env node
/**
 * Build `dist/` only when it is stale: when a file the package exports (every `exports` entry's
 * `import` file and the `bin`) is missing, or older than the newest file under `src/`,
 * `tsup.config.ts` or `package.json`. The examples, benches and the test run call it, so one build
 * serves them all instead of one build per command.
 *
 * `node scripts/build.mjs` builds when stale, saying why in one line on stderr; `--force` always builds.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of a file under `dir`, walked with an explicit stack. */
function newestUnder(dir) {
  let newest = 0;
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop();
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else newest = Math.max(newest, statSync(path).mtimeMs);
    }
  }
  return newest;
}

/** The modification time of `path`, or `undefined` when it does not exist. */
function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The built files the package hands out: each export's `import` file and the command. */
function builtFiles() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const files = Object.values(pkg.exports)
    .map((target) => (typeof target === 'object' ? target.import : undefined))
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/'));
  return [...files, ...Object.values(pkg.bin ?? {})];
}

/**
 * Why `dist/` must be built, or `undefined` when it is up to date.
 *
 * @returns {string | undefined}
 */
export function staleReason() {
  const inputs = Math.max(
    newestUnder(join(root, 'src')),
    mtimeOf(join(root, 'tsup.config.ts')) ?? 0,
    mtimeOf(join(root, 'package.json')) ?? 0,
  );
  for (const file of builtFiles()) {
    const built = mtimeOf(join(root, file));
    if (built === undefined) return `${file.slice(2)} is missing`;
    if (built < inputs) return `${file.slice(2)} is older than src/`;
  }
  return undefined;
}

/**
 * Build with tsup when `dist/` is stale (or always, with `force`). Throws with tsup's output when the
 * build fails.
 *
 * @param {{ readonly force?: boolean, readonly caller?: string }} [options]
 * @returns {boolean} whether it built
 */
export function buildIfStale(options = {}) {
  const reason = options.force ? 'asked to build' : staleReason();
  if (reason === undefined) return false;
  process.stderr.write(
    `${options.caller ?? 'scripts/build.mjs'}: ${reason}; building with tsup…\n`,
  );
  const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
  const result = spawnSync(process.execPath, [tsup, '--silent'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(
      `tsup failed (${result.error?.message ?? `exit ${result.status}`}); run \`npx tsup\` to see why.\n${result.stdout}${result.stderr}`,
    );
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale({ force: process.argv.includes('--force') });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
