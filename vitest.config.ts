import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * Test files run side by side in this many worker processes. Vitest's own default is one less than
 * the cores, which is a single worker on a 2-core machine (a CI runner, a small laptop): every file
 * then waits for the one before, though many spend their time waiting on a child process (the built
 * command line, a server) or on PGlite. `KK_TEST_WORKERS` sets it (1 runs the files one at a time).
 */
const workers = Number(process.env['KK_TEST_WORKERS'] ?? Math.max(2, availableParallelism()));

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // Builds dist/ when it is missing or not built from src/ as it is (a fresh clone's `npx vitest run`).
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
  },
});
