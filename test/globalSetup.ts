/**
 * Vitest's global setup: make sure `dist/` (the built package, which the command-line, package and
 * example tests run) is there and no older than its inputs, so that `npx vitest run` works on a fresh
 * clone. The check and the build are `scripts/build.mjs`, shared with `npm test`, the examples and the
 * benches: it builds once, saying so in one line, and a failed build fails the run at once with tsup's
 * output.
 */
import { buildIfStale } from '../scripts/build.mjs';

export default function setup(): void {
  buildIfStale({ caller: 'test/globalSetup.ts' });
}
