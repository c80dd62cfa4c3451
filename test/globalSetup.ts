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
 * at the end of the run while the other waits. So a full run (no file filter, type check on) first
 * starts the same `tsc`, writing the same incremental record, beside the tests; vitest's own run at
 * the end then finds every file checked and only reads its record (about 3 s). Its result is vitest's,
 * as before: the early run only fills the record in.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import type { TestProject } from 'vitest/node';
import { buildForTests } from '../scripts/build.mjs';

/** Set once the early type check started (the setup runs once per project). */
const STARTED = Symbol.for('knowledge-kit.test.typecheckStarted');

/**
 * Starts `tsc` as vitest's type check runs it, with its incremental record written beside vitest's
 * and renamed into place when done (a reader never sees half of it); nothing on a run with a file
 * filter or without the type check.
 */
function startTypecheck(project: TestProject): Promise<void> {
  const state = globalThis as { [STARTED]?: true };
  const { config } = project.vitest;
  const filters = (project.vitest as { filenamePattern?: readonly string[] }).filenamePattern;
  if (
    state[STARTED] === true ||
    !config.typecheck.enabled ||
    config.typecheck.checker !== 'tsc' ||
    config.typecheck.tsconfig === undefined ||
    (filters !== undefined && filters.length > 0)
  )
    return Promise.resolve();
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
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const args = ['--noEmit', '--pretty', 'false', '--incremental', '--tsBuildInfoFile', temporary];
  args.push('-p', resolve(config.root, config.typecheck.tsconfig));
  const child = spawn(process.execPath, [tsc, ...args], { cwd: config.root, stdio: 'ignore' });
  return new Promise((done) => {
    child.on('error', () => done());
    child.on('close', () => {
      // Type errors (exit 2) leave a record too; vitest reports them.
      try {
        renameSync(temporary, record);
      } catch {
        rmSync(temporary, { force: true });
      }
      done();
    });
  });
}

export default function setup(project: TestProject): () => Promise<void> {
  const typecheck = startTypecheck(project);
  const declarations = buildForTests({ caller: 'test/globalSetup.ts' });
  // Handled at teardown (and by the packed-package test).
  declarations.catch(() => undefined);
  return () => Promise.all([typecheck, declarations]).then(() => undefined);
}
