import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side in this many worker processes. Vitest's own default is one less than
 * the cores, which is a single worker on a 2-core machine (a CI runner, a small laptop): every file
 * then waits for the one before, though many spend their time waiting on a child process (the built
 * command line, a server) or on PGlite. `KK_TEST_WORKERS` sets it (1 runs the files one at a time).
 */
const workers = Number(process.env['KK_TEST_WORKERS'] ?? Math.max(2, availableParallelism()));

/**
 * Files that run in a module graph of their own (vitest's default isolation). They spy on modules,
 * count calls of module-level caches, change the environment, or start watchers whose timers may fire
 * after the file ends. Every other file shares its worker's modules with the files before it (no
 * re-import of the package and its dependencies per file: about a third of the suite's time).
 */
const ISOLATED = [
  'test/agent/exports.test.ts',
  'test/agent/source-parts-cost.test.ts',
  'test/agent/source-request-cost.test.ts',
  'test/agent/warm-up.test.ts',
  'test/catalog.test.ts',
  'test/cli/database.test.ts',
  'test/cli/mcp.test.ts',
  'test/cli/serve.test.ts',
  'test/cli/unservable-ids.test.ts',
  'test/cli/watch-load.test.ts',
  'test/http/client.test.ts',
  'test/http/deadline.test.ts',
  'test/node/file-limits.test.ts',
  'test/node/files.test.ts',
  'test/node/frontMatter-depth.test.ts',
  'test/node/unreadable.test.ts',
  'test/node/watch.test.ts',
  'test/postgres/search.test.ts',
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
