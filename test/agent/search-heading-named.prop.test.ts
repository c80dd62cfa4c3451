/**
 * `headingNamed` keeps each heading's words with the heading and skips headings whose word count
 * alone cannot reach the best Jaccard index so far: the heading it names is the one a direct reading
 * of every heading names, asked once or again on the same headings.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { headingNamed, NAMES_HEADING } from '../../src/agent/search/chunkHeadings.js';
import { indexTokens } from '../../src/agent/search/indexTokens.js';
import { isFunctionWord } from '../../src/agent/search/functionWords.js';
import type { SearchChunkHeading } from '../../src/agent/search/port.js';

const WORDS = [
  'props',
  'custom',
  'anchors',
  'slots',
  'the',
  'of',
  'vue',
  '插槽',
  '列表',
  'site',
  'config',
];

/** Every heading read, every word counted: the rule `headingNamed` states. */
function direct(headings: readonly SearchChunkHeading[], terms: readonly string[]): string | null {
  const query = new Set(terms.filter((t) => !isFunctionWord(t, t.charCodeAt(0) >= 0x2e80)));
  if (headings.length === 0 || query.size === 0) return null;
  let best: string | null = null;
  let bestScore = NAMES_HEADING;
  for (const h of headings) {
    const words = new Set<string>();
    indexTokens(h.text, (token, cjk) => {
      if (!isFunctionWord(token, cjk)) words.add(token);
    });
    let shared = 0;
    for (const w of words) if (query.has(w)) shared++;
    if (shared === 0) continue;
    const score = shared / (words.size + query.size - shared);
    if (score > bestScore || (score === bestScore && best === null)) {
      best = h.id;
      bestScore = score;
    }
  }
  return best;
}

describe('headingNamed', () => {
  it('names the heading a direct reading names, first asked and asked again', () => {
    const text = fc
      .array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 4 })
      .map((w) => w.join(' '));
    fc.assert(
      fc.property(
        fc.array(text, { minLength: 0, maxLength: 6 }),
        fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 4 }),
        (texts, terms) => {
          const headings = texts.map((t, i) => ({ id: `h${i}`, text: t, from: 0, to: 10 }));
          const want = direct(headings, terms);
          expect(headingNamed(headings, terms)?.id ?? null).toBe(want);
          expect(headingNamed(headings, terms)?.id ?? null).toBe(want);
        },
      ),
      { seed: 20261207, numRuns: 500 },
    );
  });
});
