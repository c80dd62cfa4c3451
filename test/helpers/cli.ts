/**
 * The built `knowledge-kit` bin (`dist/cli.js`) as a child process: one-shot runs that collect stdout,
 * stderr and the exit code, and long-running ones (`serve`, `mcp`) that are stopped after each test.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll } from 'vitest';
import { waitFor } from './waitFor.js';

/**
 * The command line under test: the built `dist/cli.js` (`npm test` writes it), or the bin of an
 * installed package when `KK_CLI_PATH` names one (CI runs the `--help` examples against the packed
 * tarball installed into a scratch app this way).
 */
export const CLI_PATH =
  process.env['KK_CLI_PATH'] ?? fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

/**
 * Waits (up to 30 s, for a build in progress: tsup empties `dist` first) until the bin exists, and
 * throws a clear message when it never does.
 */
export async function requireBuiltCli(): Promise<void> {
  await waitFor(() => (existsSync(CLI_PATH) ? true : undefined), {
    timeoutMs: 30_000,
    intervalMs: 200,
    what: `${CLI_PATH}: build it with \`npm run build\` (npm test does) before running test/cli`,
  });
}

/** How a run ended and what it printed. */
export interface CliResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Options of a run. */
export interface RunOptions {
  /** The working folder of the child (default: this process's). */
  readonly cwd?: string;
  /** Kills the child after this long (default 20 s): a hung command fails its test instead of the run. */
  readonly timeoutMs?: number;
}

/** An environment without settings that would change the command's output. */
function childEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env['FORCE_COLOR'];
  delete env['NODE_OPTIONS'];
  return env;
}

/**
 * Node's flags for a spawned command: WebAssembly compiled by V8's baseline compiler only. A command on
 * a `pglite:` folder compiles PGlite's WebAssembly (about 10 MB) at each start, and the optimizing
 * compiler's work on it in the background was half of such a process's CPU (1.3 s to 0.6 s), for a
 * process that runs a few queries. What the command does is the same.
 */
export const CLI_NODE_FLAGS: readonly string[] = ['--liftoff-only'];

/** Spawns `node dist/cli.js …args` with piped stdio (so stdout and stderr are not terminals). */
function spawnCli(args: readonly string[], options: RunOptions): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [...CLI_NODE_FLAGS, CLI_PATH, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: childEnv(),
    stdio: 'pipe',
  });
}

/** Runs the command to its end with stdin closed. */
export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawnCli(args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A command left running, with everything it printed so far. */
export interface RunningCli {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves when the process has exited and its streams are closed. */
  readonly exited: Promise<{
    readonly code: number | null;
    readonly signal: NodeJS.Signals | null;
  }>;
  /** Waits until stdout matches `pattern` and returns the match. */
  stdoutMatch(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Waits until stderr matches `pattern` and returns the match. */
  stderrMatch(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
}

const running = new Set<RunningCli>();

/** Sends SIGKILL to every command the tests left running, and waits for each to exit. */
async function stopAll(): Promise<void> {
  const left = [...running];
  running.clear();
  for (const cli of left)
    if (cli.child.exitCode === null && cli.child.signalCode === null) cli.child.kill('SIGKILL');
  await Promise.all(left.map((cli) => cli.exited));
}

/**
 * For a test file: every command started with `startCli` and still running is killed when the file's
 * tests are done (tests that run concurrently each stop their own as they finish).
 */
export function useRunningClis(): void {
  afterAll(stopAll);
}

/** Starts the command and leaves it running (see `useRunningClis`). */
export function startCli(args: readonly string[], options: RunOptions = {}): RunningCli {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => resolve({ code, signal }));
  });
  const describeOutput = () => `stdout:\n${stdout}\nstderr:\n${stderr}`;
  const cli: RunningCli = {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
    stdoutMatch: (pattern, timeoutMs) =>
      waitFor(() => stdout.match(pattern) ?? undefined, {
        timeoutMs,
        what: () => `stdout to match ${pattern}; ${describeOutput()}`,
      }),
    stderrMatch: (pattern, timeoutMs) =>
      waitFor(() => stderr.match(pattern) ?? undefined, {
        timeoutMs,
        what: () => `stderr to match ${pattern}; ${describeOutput()}`,
      }),
  };
  running.add(cli);
  void exited.then(() => running.delete(cli));
  return cli;
}

/** The lines of an output, without the empty string after its last line break. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
