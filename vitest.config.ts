import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side in this many worker processes. Vitest's own default is one less than
 * the cores, which is a single worker on a 2-core machine (a CI runner, a small laptop): every file
 * then waits for the one before, though many spend their time waiting on a child process (the built
 * command line, a server) or on PGlite. `KK_TEST_WORKERS` sets it (1 runs the files one at a time).
 */
const workers = Number(process.env['KK_TEST_WORKERS'] ?? Math.max(2, availableParallelism()));

/**
 * Files that run in a module graph of their own (vitest's default isolation): they mock or spy on
 * modules and globals (`vi.mock`, `Date.now`, fake timers), start a watcher whose timers may fire
 * after the file ends, or measure how deep the front-matter parser may recurse (which depends on the
 * stack other files' code left warmed up). Every other file shares its worker's modules with the
 * files before it: no re-import of the package and its dependencies per file, which was about a
 * third of the suite's time. A file that passes alone but fails in the full run belongs here.
 */
const ISOLATED = [
  'test/agent/source-parts-cost.test.ts',
  'test/agent/source-request-cost.test.ts',
  'test/agent/warm-up.test.ts',
  'test/http/client.test.ts',
  'test/http/deadline.test.ts',
  'test/node/frontMatter-depth.test.ts',
  'test/node/watch.test.ts',
];

export default defineConfig({
  test: {
    // Which files: in the projects below (a project extending this config adds to its lists).
    setupFiles: ['test/setup.ts'],
    // Builds dist/ when it is missing or not built from src/ as it is (a fresh clone, `npm test`): the
    // bundles before the first test, the declarations beside the tests (scripts/build.mjs).
    globalSetup: ['test/globalSetup.ts'],
    testTimeout: 60_000,
    maxWorkers: workers,
    // The type tests run `tsc -p tsconfig.test.json`: the whole project (src/ and test/), not only the
    // .test-d.ts files, and a type error anywhere fails the run. So `npm test` needs no separate
    // `npm run typecheck` before it, which ran the same check again.
    typecheck: {
      enabled: true,
      include: ['test/**/*.test-d.ts'],
      tsconfig: './tsconfig.test.json',
      // The output of the `tsc` the global setup started at the beginning of the run, rather than a
      // second `tsc` alone at its end (`test/typecheck-replay.mjs`). Windows cannot start a script as
      // a command: there vitest runs `tsc` itself.
      checker:
        process.platform === 'win32'
          ? 'tsc'
          : fileURLToPath(new URL('./test/typecheck-replay.mjs', import.meta.url)),
    },
    projects: [
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: ISOLATED,
          isolate: false,
          // The type check runs once, in the other project.
          typecheck: { enabled: false },
        },
      },
    ],
  },
});
