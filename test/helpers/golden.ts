/**
 * Golden files: reviewed expected outputs kept as JSON beside the tests. A run only ever compares
 * with them; the one way to write one is an explicit `UPDATE_GOLDEN=1` outside CI, and a run that
 * writes a golden file never reports that comparison as a pass (it compared the output with itself):
 * the test fails softly, naming each file it wrote, so the diff is reviewed and the tests run again.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** How a golden file is handled in this run, from the environment. */
export type GoldenMode = 'compare' | 'update';

/**
 * The mode for this run: `update` with `UPDATE_GOLDEN=1`, else `compare`.
 *
 * @throws Error under `CI` (any non-empty value but `false` or `0`) with `UPDATE_GOLDEN=1`: CI never
 * writes the files it checks.
 */
export function goldenMode(env: NodeJS.ProcessEnv = process.env): GoldenMode {
  const update = env['UPDATE_GOLDEN'] === '1';
  const ci =
    env['CI'] !== undefined && env['CI'] !== '' && env['CI'] !== 'false' && env['CI'] !== '0';
  if (update && ci)
    throw new Error(
      'UPDATE_GOLDEN=1 under CI: golden files are written only on a developer machine, reviewed and committed; unset UPDATE_GOLDEN in CI.',
    );
  return update ? 'update' : 'compare';
}

/**
 * Compare `value` (as pretty JSON) with the golden file `file`. With `UPDATE_GOLDEN=1`, write it
 * instead, and fail the test softly, naming the file, since this run checked nothing.
 *
 * @param file - the golden file, e.g. `new URL('./fixtures/golden/x.json', import.meta.url)`.
 * @param value - the output, a JSON value.
 * @throws Error when the file is missing and this is not an update run: how to write it.
 */
export function expectGolden(
  file: URL,
  value: unknown,
  env: NodeJS.ProcessEnv = process.env,
): void {
  const text = `${JSON.stringify(value, null, 2)}\n`;
  const path = fileURLToPath(file);
  if (goldenMode(env) === 'update') {
    writeFileSync(file, text);
    expect
      .soft(
        `wrote ${path}`,
        'UPDATE_GOLDEN=1 wrote this golden file, so it was not checked: review the diff, then run the tests again without UPDATE_GOLDEN',
      )
      .toBe('compared');
    return;
  }
  if (!existsSync(file))
    throw new Error(
      `${path}: no golden file. Write it with \`UPDATE_GOLDEN=1 npx vitest run <this test file>\`, review it, commit it, and run the tests again.`,
    );
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(file, 'utf8')));
}
