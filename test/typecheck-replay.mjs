#!/usr/bin/env node
/**
 * Vitest's type checker (`typecheck.checker` in `vitest.config.ts`): the output of the `tsc` run the
 * global setup started at the beginning of a full run (`test/globalSetup.ts`), instead of a second
 * `tsc` after every other test file. Vitest starts its checker last, alone: on a 2-core machine that
 * was about 4 s of one core at the end of the run, and 6 s of CPU, to read back what the early run
 * had just found. The early run is the same command on the same settings, so vitest reads the same
 * lines and reports the same type errors and type tests.
 *
 * It runs `tsc` itself, with the arguments vitest gave, when there is no early run in this process
 * tree (`KK_TYPECHECK_RESULT` unset: a run with a file filter, or the type check alone), in watch
 * mode (`--watch`: vitest reads `tsc`'s watch output), and when the early run has not ended after
 * ten minutes.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** How long the early run may take before `tsc` is run here instead. */
const WAIT_MS = 600_000;

/** Whether the early run wrote its exit code (after its output) within `WAIT_MS`. */
async function earlyRunEnded(result) {
  const deadline = Date.now() + WAIT_MS;
  while (!existsSync(`${result}.code`)) {
    if (Date.now() > deadline) return false;
    await new Promise((next) => setTimeout(next, 100));
  }
  return true;
}

/** Runs `tsc` with vitest's arguments, passing on vitest's signals, exiting as it does. */
function runTsc() {
  const require = createRequire(import.meta.url);
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('error', (error) => {
    process.stderr.write(`tsc could not be started: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('close', (code) => (process.exitCode = code ?? 1));
}

const result = process.env['KK_TYPECHECK_RESULT'];
if (
  result !== undefined &&
  result !== '' &&
  !process.argv.includes('--watch') &&
  (await earlyRunEnded(result))
) {
  process.stdout.write(readFileSync(`${result}.out`, 'utf8'));
  process.exitCode = Number(readFileSync(`${result}.code`, 'utf8'));
} else runTsc();
