/**
 * `buildTermRows` lays out an index of any number of pairs: a spread of every pair into the row list
 * overflowed the call stack on a corpus of some 10,000 pages (found by the static bundle's bench).
 */
import { expect, it } from 'vitest';
import { buildTermRows } from '../../src/agent/search/memoryTermStore.js';
import { corpusOf, searchFixture } from '../helpers/search-fixtures.js';

it('lays out an index of 300,000 distinct pairs', { timeout: 60_000 }, async () => {
  // 700 words, each followed by 430 others in turn: 301,000 pairs, nearly all distinct.
  const words: string[] = [];
  for (let i = 0; i < 700; i++) words.push(`w${i}`);
  const text: string[] = [];
  for (let a = 0; a < 700; a++)
    for (let b = 0; b < 430; b++) text.push(words[a]!, words[(a + b + 1) % 700]!);
  const fixture = searchFixture([{ id: 'big', text: text.join(' ') }]);
  const rows = await buildTermRows(corpusOf(fixture));
  const pairs = rows.rows.filter((r) => r.pair).length;
  expect(pairs).toBeGreaterThan(200_000);
  expect(rows.rows.length).toBe(pairs + rows.rows.filter((r) => !r.pair).length);
});
