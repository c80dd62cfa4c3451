#!/usr/bin/env node
/**
 * Build `dist/` only when it is stale, so that `npm test`, every `npm run example*`, the benches and
 * vitest's global setup share one build instead of building each time (about 25 s of CPU: bundles and
 * declarations).
 *
 * `dist/` is fresh when every file the package exports (each `exports` entry's `import` file and the
 * `bin`) is there and was built from the inputs as they are now: a SHA-256 of every file under `src/`
 * (paths and contents), `tsup.config.ts`, `tsconfig.json`, `scripts/declarations.mjs` and
 * `package.json` without its `scripts`.
 * A successful build records that hash, with the built files' modification time, in
 * `node_modules/.cache/knowledge-kit/build.json` (outside `dist/`, so it is never packed). A content
 * hash, not modification times, so that a deleted source file rebuilds and a checkout that changes
 * nothing (switching branches and back) does not. When `dist/` was built some other way
 * (`npm run build`), the record is not about it and the older rule decides: fresh when no input is
 * newer than the built files.
 *
 * `node scripts/build.mjs` builds when stale, saying why in one line on stderr, and prints nothing
 * when fresh; `--force` always builds.
 *
 * The bundles are tsup's (a few seconds of CPU), the declarations `scripts/declarations.mjs`'s
 * (TypeScript per file, then rollup-plugin-dts; about 20 s with its type check, 6 s without). Only the
 * packed-package test reads the declarations, so the test run (`buildForTests`, vitest's global setup)
 * builds the bundles before the first test and the declarations in a child process beside the tests,
 * marked by `declarations.pending` next to the record; `declarationsReady` waits for them. That child
 * emits them without type-checking `src/` (`--no-check`, TypeScript's `noCheck`): the same run's type
 * check (`tsc -p tsconfig.test.json`, vitest's `typecheck`) checks `src/` already and fails the run on
 * any error. `npm run build`, packing and `node scripts/build.mjs` check as they emit.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const recordDir = join(root, 'node_modules', '.cache', 'knowledge-kit');
const recordPath = join(recordDir, 'build.json');
/** While a test run builds the declarations: the builder's process ID. */
const pendingPath = join(recordDir, 'declarations.pending');
/** After a failed declarations build: its output. */
const failedPath = join(recordDir, 'declarations.failed');
const tsup = join(root, 'node_modules', 'tsup', 'dist', 'cli-default.js');
const declarations = join(root, 'scripts', 'declarations.mjs');

/** Every file under `dir`, sorted, walked with an explicit stack. */
function filesUnder(dir) {
  const files = [];
  const stack = [dir];
  while (stack.length > 0) {
    const current = stack.pop();
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) stack.push(path);
      else files.push(path);
    }
  }
  return files.sort();
}

/** The modification time of `path`, or `undefined` when it does not exist. */
function mtimeOf(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** `package.json` as read. */
function packageJson() {
  return JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
}

/**
 * The built files the package hands out: each export's `import` file and the command, and each
 * export's `types` file unless `declarations` is false.
 */
function builtFiles(pkg, declarations = true) {
  const files = Object.values(pkg.exports)
    .flatMap((target) =>
      typeof target === 'object' ? [target.import, ...(declarations ? [target.types] : [])] : [],
    )
    .filter((file) => typeof file === 'string' && file.startsWith('./dist/'));
  return [...files, ...Object.values(pkg.bin ?? {})].map((file) => join(root, file));
}

/** Whether a process with this ID is running. */
function isRunning(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Whether a running process is building the declarations (`buildForTests`). */
function declarationsPending() {
  try {
    return isRunning(Number(readFileSync(pendingPath, 'utf8')));
  } catch {
    return false;
  }
}

/**
 * The SHA-256 of what the build reads: `src/`, the tsup and TypeScript settings, the declarations
 * script, `package.json` less `scripts`.
 */
export function inputHash() {
  const hash = createHash('sha256');
  const add = (name, content) => {
    hash.update(`${name}\0${content.length}\0`);
    hash.update(content);
  };
  for (const file of filesUnder(join(root, 'src')))
    add(relative(root, file).split(sep).join('/'), readFileSync(file));
  for (const name of ['tsup.config.ts', 'tsconfig.json', 'scripts/declarations.mjs']) {
    try {
      add(name, readFileSync(join(root, name)));
    } catch {
      add(name, '');
    }
  }
  const { scripts: _scripts, ...pkg } = packageJson();
  add('package.json', JSON.stringify(pkg));
  return hash.digest('hex');
}

/** The record of the last build this script made, or `undefined`. */
function readRecord() {
  try {
    const record = JSON.parse(readFileSync(recordPath, 'utf8'));
    return typeof record.hash === 'string' && typeof record.builtMtimeMs === 'number'
      ? record
      : undefined;
  } catch {
    return undefined;
  }
}

/** Writes the record (a new file renamed into place: node_modules may be hard-linked copies). */
function writeRecord(hash, builtMtimeMs) {
  mkdirSync(recordDir, { recursive: true });
  const temporary = `${recordPath}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify({ hash, builtMtimeMs })}\n`);
  renameSync(temporary, recordPath);
}

/**
 * Why `dist/` must be built, or `undefined` when it is up to date; with `declarations: false`, its
 * bundles only (what every test but the packed-package one runs).
 *
 * @param {{ readonly declarations?: boolean }} [options]
 * @returns {string | undefined}
 */
export function staleReason(options = {}) {
  const declarations = options.declarations ?? true;
  const pkg = packageJson();
  const built = builtFiles(pkg, declarations);
  let oldest = Infinity;
  for (const file of built) {
    const mtime = mtimeOf(file);
    if (mtime === undefined) return `${relative(root, file)} is missing`;
    oldest = Math.min(oldest, mtime);
  }
  if (declarations && declarationsPending()) return 'its declarations are being built';
  // The record is of the whole build: compare it with every built file's time when all are there.
  const all = builtFiles(pkg).map(mtimeOf);
  const complete = all.every((mtime) => mtime !== undefined);
  const record = readRecord();
  if (complete && record !== undefined && record.builtMtimeMs === Math.min(...all))
    return record.hash === inputHash() ? undefined : 'src/ or the build settings changed';
  // dist/ was not built by this script: fresh when no input is newer than it.
  const inputs = Math.max(
    ...filesUnder(join(root, 'src')).map((file) => mtimeOf(file) ?? 0),
    ...['tsup.config.ts', 'tsconfig.json', 'scripts/declarations.mjs', 'package.json'].map(
      (name) => mtimeOf(join(root, name)) ?? 0,
    ),
  );
  return inputs > oldest ? `${relative(root, built[0])} is older than src/` : undefined;
}

/** Runs `node args…` in the project's folder; throws with its output when it fails. */
function runStep(what, args) {
  const result = spawnSync(process.execPath, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0)
    throw new Error(
      `${what} failed (${result.error?.message ?? `exit ${result.status}`}); run \`npm run build\` to see why.\n${result.stdout}${result.stderr}`,
    );
}

/** Builds the bundles with tsup (emptying `dist/` first). */
function buildBundles() {
  runStep('tsup', [tsup, '--silent']);
}

/** Records a whole build made from inputs of `hash` (and forgets an earlier failed one). */
function recordBuild(hash) {
  writeRecord(hash, Math.min(...builtFiles(packageJson()).map((file) => mtimeOf(file) ?? 0)));
  rmSync(failedPath, { force: true });
}

/**
 * Build when `dist/` is stale (or always, with `force`). Throws with the failed step's output when the
 * build fails.
 *
 * @param {{ readonly force?: boolean, readonly caller?: string }} [options]
 * @returns {boolean} whether it built
 */
export function buildIfStale(options = {}) {
  // A test run building the declarations: wait for it rather than empty dist/ under its tests.
  const pause = new Int32Array(new SharedArrayBuffer(4));
  while (declarationsPending()) Atomics.wait(pause, 0, 0, 250);
  const reason = options.force ? 'asked to build' : staleReason();
  if (reason === undefined) return false;
  process.stderr.write(`${options.caller ?? 'scripts/build.mjs'}: ${reason}; building…\n`);
  // Hashed before the build, so an edit made while it runs makes the next call build again.
  const hash = inputHash();
  buildBundles();
  runStep('scripts/declarations.mjs', [declarations]);
  recordBuild(hash);
  return true;
}

/**
 * For a test run: builds the bundles now when they are stale, and the declarations, when they are
 * stale, in a child process while the tests run. Throws with tsup's output when the bundles fail.
 *
 * @param {{ readonly caller?: string }} [options]
 * @returns {Promise<void>} settles when the declarations are built (rejects with their output when
 *   they fail); at once when they were up to date.
 */
export function buildForTests(options = {}) {
  const caller = options.caller ?? 'scripts/build.mjs';
  if (declarationsPending()) return declarationsReady();
  const hash = inputHash();
  const reason = staleReason({ declarations: false });
  if (reason !== undefined) {
    process.stderr.write(`${caller}: ${reason}; building the bundles with tsup…\n`);
    buildBundles();
  } else if (staleReason() === undefined) return Promise.resolve();
  rmSync(failedPath, { force: true });
  mkdirSync(recordDir, { recursive: true });
  const child = spawn(process.execPath, [declarations, '--no-check'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  writeFileSync(pendingPath, String(child.pid ?? process.pid));
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
  return new Promise((resolve, reject) => {
    let ended = false;
    const end = (code, why) => {
      if (ended) return;
      ended = true;
      if (code === 0) recordBuild(hash);
      else
        writeFileSync(
          failedPath,
          `scripts/declarations.mjs --no-check failed (${why}).\n${output}`,
        );
      rmSync(pendingPath, { force: true });
      if (code === 0) resolve();
      else reject(new Error(readFileSync(failedPath, 'utf8')));
    };
    // A child that cannot start emits `error` (then `close`): it fails the build, never the caller.
    child.on('error', (error) => end(1, error.message));
    child.on('close', (code, signal) => end(code, signal ?? `exit ${code}`));
  });
}

/**
 * Waits while a test run builds the declarations (`buildForTests`, up to `timeoutMs`), then throws
 * that build's output when it failed (or why `dist/` is still not up to date).
 *
 * @param {{ readonly timeoutMs?: number }} [options]
 * @returns {Promise<void>}
 */
export async function declarationsReady(options = {}) {
  const deadline = Date.now() + (options.timeoutMs ?? 600_000);
  while (declarationsPending()) {
    if (Date.now() > deadline)
      throw new Error(
        `scripts/build.mjs: the declarations were still being built after ${options.timeoutMs ?? 600_000} ms`,
      );
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  // A failed build first: what it left in dist/ may look up to date.
  let failed;
  try {
    failed = readFileSync(failedPath, 'utf8');
  } catch {
    // No failed build.
  }
  if (failed !== undefined) throw new Error(failed);
  const reason = staleReason();
  if (reason !== undefined)
    throw new Error(`scripts/build.mjs: dist/ is not up to date (${reason})`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    buildIfStale({ force: process.argv.includes('--force') });
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
