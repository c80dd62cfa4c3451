/**
 * Vitest's global setup: make sure `dist/` (the built package, which the command-line, package and
 * example tests run) is there and no older than its inputs, so that `npx vitest run` works on a fresh
 * clone. The check and the build are `scripts/build.mjs`, shared with the examples and the benches:
 * the bundles are built before the first test, saying so in one line (a failed build fails the run at
 * once with tsup's output), and the declarations, which only the packed-package test reads (it waits
 * for them, and fails when they failed), beside the tests. The run ends when they are built; vitest
 * prints a failed build of them as an error of this teardown.
 *
 * It also starts the type check early. Vitest runs its type check (`tsc` on `tsconfig.test.json`, the
 * whole project) after every other test file, alone: on a fresh clone that is 10 to 20 s of one core
 * at the end of the run while the other waits. So a full run (no file filter, type check on) starts
 * the same `tsc` first, beside the tests, with its output kept in a file; vitest's checker
 * (`test/typecheck-replay.mjs`) then hands vitest that output instead of running `tsc` again, so
 * vitest reports the same type errors and type tests. Its incremental record is vitest's, so a later
 * run with a file filter, whose checker runs `tsc` itself, starts from it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  copyFileSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildForTests } from '../scripts/build.mjs';

/** Set once the early type check started (the setup runs once per project). */
const STARTED = Symbol.for('knowledge-kit.test.typecheckStarted');

/** The checker of `vitest.config.ts` that replays the early run. */
const REPLAY = 'typecheck-replay.mjs';

/**
 * Starts `tsc` as vitest's type check runs it, its output and then its exit code written to
 * `typecheck-<pid>-<random>.out` and `.code` in the build cache, which `KK_TYPECHECK_RESULT` names for the
 * checker; its incremental record written beside vitest's and renamed into place when done (a reader
 * never sees half of it). Nothing on a run with a file filter, in watch mode, or without the type
 * check.
 *
 * @returns settles when `tsc` has ended; its files removed by `remove`.
 */
function startTypecheck(project: TestProject): { done: Promise<void>; remove(): void } {
  const state = globalThis as { [STARTED]?: true };
  const { config } = project.vitest;
  const filters = (project.vitest as { filenamePattern?: readonly string[] }).filenamePattern;
  const none = { done: Promise.resolve(), remove: () => undefined };
  if (
    state[STARTED] === true ||
    !config.typecheck.enabled ||
    // Watch mode: vitest's checker runs `tsc --watch` itself (the replay hands it over).
    config.watch ||
    !config.typecheck.checker.endsWith(REPLAY) ||
    config.typecheck.tsconfig === undefined ||
    (filters !== undefined && filters.length > 0)
  )
    return none;
  state[STARTED] = true;
  const require = createRequire(import.meta.url);
  // Where vitest keeps the record: its own `dist/` folder.
  const record = join(
    dirname(require.resolve('vitest/package.json')),
    'dist',
    'tsconfig.tmp.tsbuildinfo',
  );
  const temporary = `${record}.${process.pid}.tmp`;
  // From the record as it is (a copy: the file may be shared), so the early run is incremental too.
  try {
    copyFileSync(record, temporary);
  } catch {
    // No record yet: a full check.
  }
  const cache = join(config.root, 'node_modules', '.cache', 'knowledge-kit');
  mkdirSync(cache, { recursive: true });
  const result = join(cache, `typecheck-${process.pid}-${randomBytes(4).toString('hex')}`);
  const remove = () => {
    rmSync(`${result}.out`, { force: true });
    rmSync(`${result}.code`, { force: true });
  };
  remove();
  process.env['KK_TYPECHECK_RESULT'] = result;
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const args = ['--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', temporary];
  args.push('-p', resolve(config.root, config.typecheck.tsconfig));
  const output = openSync(`${result}.out`, 'w');
  const child = spawn(process.execPath, [tsc, ...args], {
    cwd: config.root,
    stdio: ['ignore', output, output],
  });
  const done = new Promise<void>((settle) => {
    let ended = false;
    const end = (code: number) => {
      // A child that cannot start emits `error`, then `close`.
      if (ended) return;
      ended = true;
      closeSync(output);
      try {
        renameSync(temporary, record);
      } catch {
        rmSync(temporary, { force: true });
      }
      // Type errors (exit 2) leave a record too; vitest reports them from the output.
      writeFileSync(`${result}.code.tmp`, String(code));
      renameSync(`${result}.code.tmp`, `${result}.code`);
      settle();
    };
    child.on('error', (error) => {
      writeSync(output, `tsc could not be started: ${error.message}\n`);
      end(1);
    });
    child.on('close', (code) => end(code ?? 1));
  });
  return { done, remove };
}

export default function setup(project: TestProject): () => Promise<void> {
  const typecheck = startTypecheck(project);
  const declarations = buildForTests({ caller: 'test/globalSetup.ts' });
  // Handled at teardown (and by the packed-package test).
  declarations.catch(() => undefined);
  return async () => {
    const [, built] = await Promise.allSettled([typecheck.done, declarations]);
    typecheck.remove();
    if (built.status === 'rejected') throw built.reason;
  };
}
