#!/usr/bin/env node
/**
 * Vitest's type checker (`typecheck.checker` in `vitest.config.ts`): the output of the `tsc` run the
 * global setup started at the beginning of a full run (`test/globalSetup.ts`), instead of a second
 * `tsc` after every other test file. Vitest starts its checker last, alone: on a 2-core machine that
 * was about 4 s of one core at the end of the run, and 6 s of CPU, to read back what the early run
 * had just found. The early run is the same command on the same settings, so vitest reads the same
 * lines and reports the same type errors and type tests.
 *
 * Without an early run in this process tree (`KK_TYPECHECK_RESULT` unset: a run with a file filter,
 * or the type check alone), it runs `tsc` with the arguments vitest gave.
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const result = process.env['KK_TYPECHECK_RESULT'];
if (result !== undefined && result !== '') {
  // Written by the early run when it ends: its exit code, after its output.
  while (!existsSync(`${result}.code`)) await new Promise((next) => setTimeout(next, 100));
  process.stdout.write(readFileSync(`${result}.out`, 'utf8'));
  process.exitCode = Number(readFileSync(`${result}.code`, 'utf8'));
} else {
  const require = createRequire(import.meta.url);
  const tsc = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, ...process.argv.slice(2)], { stdio: 'inherit' });
  child.on('close', (code, signal) => (process.exitCode = code ?? (signal === null ? 1 : 1)));
}
