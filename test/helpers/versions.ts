/**
 * `publishedAt` in tool outputs: each source's own time (when its store published the revision, or
 * when the source was created), which legitimately differs between two sources over the same
 * knowledge. Comparisons across sources check that it is an ISO time, then compare the rest.
 */
import { expect } from 'vitest';

/** An ISO 8601 time as `Date#toISOString()` writes it. */
export const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `value` as JSON, with every `publishedAt` checked to be an ISO time and replaced by
 * `<publishedAt>`; everything else as it is.
 *
 * @param value - a tool output (or an error outcome, or any JSON value).
 */
export function timeless(value: unknown): unknown {
  if (value === undefined) return undefined;
  const walk = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(walk);
    if (typeof node !== 'object' || node === null) return node;
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(node)) {
      if (key === 'publishedAt') {
        expect(inner).toMatch(ISO_TIME);
        out[key] = '<publishedAt>';
      } else out[key] = walk(inner);
    }
    return out;
  };
  return walk(JSON.parse(JSON.stringify(value)) as unknown);
}

/**
 * Expect two outputs of two sources over the same knowledge to be equal but for `publishedAt` (each an
 * ISO time).
 *
 * @param actual - the output under test.
 * @param expected - the reference source's output.
 * @param what - the assertion's message.
 */
export function expectSameOutput(actual: unknown, expected: unknown, what?: string): void {
  expect(timeless(actual), what).toEqual(timeless(expected));
}
