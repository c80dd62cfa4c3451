/**
 * Vitest's global setup: make sure `dist/` (the built package, which the command-line, package and
 * example tests run) is there and no older than its inputs, so that `npx vitest run` works on a fresh
 * clone. The check and the build are `scripts/build.mjs`, shared with the examples and the benches:
 * the bundles are built before the first test, saying so in one line (a failed build fails the run at
 * once with tsup's output), and the declarations, which only the packed-package test reads (it waits
 * for them, and fails when they failed), beside the tests. The run ends when they are built; vitest
 * prints a failed build of them as an error of this teardown.
 */
import { buildForTests } from '../scripts/build.mjs';

export default function setup(): () => Promise<void> {
  const declarations = buildForTests({ caller: 'test/globalSetup.ts' });
  // Handled at teardown (and by the packed-package test).
  declarations.catch(() => undefined);
  return () => declarations;
}
