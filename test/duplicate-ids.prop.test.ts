// Duplicate section IDs, found after the scan from the open anchors it recorded
// (src/parse/firstOpens.ts): the same issues, in the same order, as a plain `Map` of first opens finds.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KnowledgeError, type KnowledgeIssue, parseKnowledgeDocument } from '../src/index.js';

/** What is compared of an issue. */
type Found = Pick<KnowledgeIssue, 'code'> & {
  [K in 'line' | 'column' | 'sectionId' | 'related']: KnowledgeIssue[K] | undefined;
};
import { hashOf, MAX_PROBES } from '../src/parse/firstOpens.js';
import { catchKnowledgeError } from './helpers/knowledgeError.js';

interface Section {
  readonly id: string;
  /** Written as a near miss the parser pairs as meant: indented by two spaces, so at column 3. */
  readonly indented: boolean;
  readonly children: readonly Section[];
}

/** A section nested at most `depth` levels below it. */
const sectionAt = (depth: number): fc.Arbitrary<Section> =>
  fc.record({
    // A small pool, so that IDs repeat; one of them is 13 characters, as long as a sliced string.
    id: fc.constantFrom('a', 'b', 'c', 'x.y', 'z:1', 'thirteen-char'),
    indented: fc.boolean(),
    children: depth === 0 ? fc.constant([]) : fc.array(sectionAt(depth - 1), { maxLength: 3 }),
  });

/** The text of `sections`, and the open anchors in text order with their places. */
function write(sections: readonly Section[]): {
  text: string;
  opens: { id: string; line: number; column: number }[];
} {
  const lines: string[] = [];
  const opens: { id: string; line: number; column: number }[] = [];
  const visit = (s: Section): void => {
    lines.push(`${s.indented ? '  ' : ''}<!-- agent-section:${s.id} -->`);
    opens.push({ id: s.id, line: lines.length, column: s.indented ? 3 : 1 });
    lines.push('Some text, 一些文字。', '');
    for (const child of s.children) visit(child);
    lines.push(`<!-- /agent-section:${s.id} -->`);
  };
  for (const s of sections) visit(s);
  return { text: `${lines.join('\n')}\n`, opens };
}

/** What a `Map` of first opens reports, in text order. */
function expectedDuplicates(
  opens: readonly { id: string; line: number; column: number }[],
): Found[] {
  const first = new Map<string, { line: number; column: number }>();
  const out: Found[] = [];
  for (const open of opens) {
    const seen = first.get(open.id);
    if (seen === undefined) first.set(open.id, { line: open.line, column: open.column });
    else
      out.push({
        code: 'DUPLICATE_SECTION_ID',
        line: open.line,
        column: open.column,
        sectionId: open.id,
        related: seen,
      });
  }
  return out;
}

const duplicatesIn = (text: string): Found[] => {
  try {
    parseKnowledgeDocument({ id: 'doc', revision: 'r1', text });
    return [];
  } catch (error) {
    if (!(error instanceof KnowledgeError)) throw error;
    return error.issues
      .filter((issue) => issue.code === 'DUPLICATE_SECTION_ID')
      .map(({ code, line, column, sectionId, related }) => ({
        code,
        line,
        column,
        sectionId,
        related,
      }));
  }
};

/** Sibling sections with `ids`, each two lines (its open anchor at line 2k + 1). */
const siblings = (ids: readonly string[]): string =>
  `${ids.map((id) => `<!-- agent-section:${id} -->\n<!-- /agent-section:${id} -->`).join('\n')}\n`;

describe('duplicate section IDs', () => {
  it('are the duplicates a Map of first opens finds, at the same places, in text order', () => {
    fc.assert(
      fc.property(fc.array(sectionAt(3), { maxLength: 4 }), (sections) => {
        const { text, opens } = write(sections);
        expect(duplicatesIn(text)).toEqual(expectedDuplicates(opens));
      }),
    );
  });

  it('are all found when the IDs collide in the hash table past its probe limit', () => {
    // IDs whose hashes agree in their low 16 bits start at the same slot in any table of up to
    // 65,536 slots, so every new one probes past all those before it, and the lookups move to a Map.
    const colliding: string[] = [];
    const slot = hashOf('seed-id', 0, 7) & 0xffff;
    for (let i = 0; colliding.length < MAX_PROBES + 8; i++) {
      const id = `id-${i.toString(36)}`;
      if ((hashOf(id, 0, id.length) & 0xffff) === slot) colliding.push(id);
    }
    // Duplicates before and after the move: of an early ID, of the last one, and of an ID that was
    // never in the table.
    const ids = [
      'seed-id',
      ...colliding,
      'seed-id',
      colliding[2]!,
      colliding.at(-1)!,
      'other',
      'other',
    ];
    const opens = ids.map((id, k) => ({ id, line: k + 1, column: 1 }));
    const text = `${ids.map((id) => `<!-- agent-section:${id} -->\n<!-- /agent-section:${id} -->`).join('\n')}\n`;
    // Each section is two lines here.
    const expected = expectedDuplicates(
      opens.map((open) => ({ ...open, line: 2 * open.line - 1 })),
    );
    expect(expected).toHaveLength(4);
    expect(duplicatesIn(text)).toEqual(expected);
    // IDs that do not collide stay in the table.
    expect(duplicatesIn(siblings(['seed-id', 'other', 'seed-id']))).toHaveLength(1);
  });

  describe('are found as a Map finds them when many IDs share a slot, whatever the mix', () => {
    // 300 IDs whose hashes agree in their low 10 bits: with 301 to 512 open anchors the table has
    // 1,024 slots, so each of them starts at the same slot, and the 65th finds no room within
    // MAX_PROBES + 1 slots and moves the lookups to a Map (the lookup loop reads no more than that,
    // so a parse costs at most MAX_PROBES + 1 slot reads per open anchor, whatever its IDs).
    const colliding: string[] = [];
    const slot = hashOf('c-0', 0, 3) & 1023;
    for (let i = 0; colliding.length < 300; i++) {
      const id = `c-${i.toString(36)}`;
      if ((hashOf(id, 0, id.length) & 1023) === slot) colliding.push(id);
    }

    it('on 300 colliding IDs, with duplicates of some', () => {
      const ids = [...colliding, colliding[0]!, colliding[150]!, colliding[299]!];
      const opens = ids.map((id, k) => ({ id, line: 2 * k + 1, column: 1 }));
      expect(duplicatesIn(siblings(ids))).toEqual(expectedDuplicates(opens));
    });

    it('on any mix of colliding and other IDs', () => {
      // Mostly colliding IDs, up to 600 of them: enough that many runs pass the limit.
      const id = fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...colliding) },
        { weight: 1, arbitrary: fc.constantFrom('a', 'b', 'x.y', 'thirteen-char') },
      );
      let pastLimit = 0;
      fc.assert(
        fc.property(fc.array(id, { minLength: 0, maxLength: 600, size: 'max' }), (ids) => {
          const opens = ids.map((one, k) => ({ id: one, line: 2 * k + 1, column: 1 }));
          expect(duplicatesIn(siblings(ids))).toEqual(expectedDuplicates(opens));
          // More distinct colliding IDs than the limit: the lookups moved to a Map.
          if (new Set(ids.filter((one) => colliding.includes(one))).size > MAX_PROBES + 1)
            pastLimit++;
        }),
        { numRuns: 40 },
      );
      // The runs are not all too small to test the limit.
      expect(pastLimit).toBeGreaterThan(10);
    });
  });

  it('are told apart from different IDs whose hashes are equal', () => {
    // A pair of IDs with the same 32-bit hash under this process's seed (about 18 such pairs are
    // expected among 400,000 IDs).
    const seen = new Map<number, string>();
    let pair: [string, string] | undefined;
    // Random IDs of 12 characters: FNV-1a gives sequential short IDs too few collisions to find.
    let state = 20261130;
    const next = () => {
      state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x9e3779b9) | 0;
      return (state >>> 0) % 36;
    };
    for (let i = 0; pair === undefined && i < 400_000; i++) {
      let id = 'h';
      for (let k = 0; k < 11; k++) id += next().toString(36);
      const hash = hashOf(id, 0, id.length);
      const other = seen.get(hash);
      if (other === undefined) seen.set(hash, id);
      else pair = [other, id];
    }
    expect(pair).toBeDefined();
    const [a, b] = pair!;
    const section = (id: string, indent = '') =>
      `${indent}<!-- agent-section:${id} -->\n<!-- /agent-section:${id} -->`;
    // In the text as written, and as a near miss paired as meant (an ID that is not in the text).
    expect(duplicatesIn([section(a), section(b), section(b, '  ')].join('\n'))).toEqual([
      {
        code: 'DUPLICATE_SECTION_ID',
        line: 5,
        column: 3,
        sectionId: b,
        related: { line: 3, column: 1 },
      },
    ]);
    expect(duplicatesIn([section(a, '  '), section(b, '  '), section(a)].join('\n'))).toEqual([
      {
        code: 'DUPLICATE_SECTION_ID',
        line: 5,
        column: 1,
        sectionId: a,
        related: { line: 1, column: 3 },
      },
    ]);
  });

  it('are reported with the other issues in text order', () => {
    const text = [
      '<!-- agent-section:a -->',
      '<!-- /agent-section:b -->',
      '<!-- agent-section:a -->',
      '<!--agent-section:c -->',
      '<!-- /agent-section:a -->',
    ].join('\n');
    const error = catchKnowledgeError(() =>
      parseKnowledgeDocument({ id: 'doc', revision: 'r1', text }),
    );
    // The outer `a` is never closed; the close at line 5 closes the near miss `c` and the inner `a`.
    expect(error.issues.map((issue) => [issue.code, issue.line])).toEqual([
      ['UNCLOSED_SECTION', 1],
      ['MISMATCHED_CLOSE', 2],
      ['DUPLICATE_SECTION_ID', 3],
      ['MALFORMED_ANCHOR', 4],
      ['MISMATCHED_CLOSE', 5],
    ]);
  });
});
