/** fast-check arbitraries for anchored Markdown and documents. */
import fc from 'fast-check';
import type { KnowledgeDocument, KnowledgePart } from '../../src/index.js';
import { scanText } from '../../src/parse/scanText.js';

/**
 * Whether a string part survives formatting: no anchor-like line outside code, no fence left open.
 * A prose line such as `- x` opens a list item that can hold the fence after it, and CommonMark ends
 * that fence with the item, so not every mix of prose and fences is safe.
 */
function formatsSafely(text: string): boolean {
  let anchors = 0;
  const scan = scanText(text, () => {
    anchors++;
  });
  return anchors === 0 && scan.openFence === undefined;
}

const ID_CHARS = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.:-'];

/** An ID in the text anchor set, prototype names included. */
export const sectionId = fc.oneof(
  {
    weight: 5,
    arbitrary: fc.string({ unit: fc.constantFrom(...ID_CHARS), minLength: 1, maxLength: 8 }),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      '__proto__',
      'constructor',
      'hasOwnProperty',
      'toString',
      'a.b',
      'x:y-z',
    ),
  },
);

/** Characters that may start a prose line: never a space, `<`, a backtick or a tilde. */
const lineStart = fc.constantFrom(
  'a',
  'Z',
  '7',
  '中',
  '文',
  '#',
  '-',
  '*',
  '>',
  '!',
  '(',
  '|',
  '😀',
  '_',
);
const lineChar = fc.constantFrom(
  ...'ab yz 中文。，<>`~!-#*_:.[]()/\\'.split(''),
  ' ',
  '\t',
  'é',
  '😀',
);

/** A non-blank body line that is never an anchor, a near miss or a fence line. */
export const proseLine = fc
  .tuple(
    fc.constantFrom('', '', '', '  ', '   '),
    lineStart,
    fc.string({ unit: lineChar, maxLength: 24 }),
  )
  .map(([indent, first, rest]) => indent + first + rest);

/** An exact anchor line. */
export const anchorLine = fc
  .tuple(fc.boolean(), sectionId)
  .map(([close, id]) => `<!-- ${close ? '/' : ''}agent-section:${id} -->`);

/** A near miss: parses as MALFORMED_ANCHOR outside a fence. */
export const nearMissLine = fc.constantFrom(
  '<!--agent-section:a-->',
  '  <!-- agent-section:a -->',
  '<!-- agent-section:a --> ',
  '<!-- AGENT-SECTION:a -->',
  '<!-- agent-section: -->',
  '<!-- agent-section:a b -->',
  '<!-- mentions agent-section -->',
);

/** A closed fenced code block whose body may show anchors and near misses. */
export const fenceBlock = fc
  .record({
    char: fc.constantFrom('`', '~'),
    length: fc.integer({ min: 3, max: 5 }),
    longer: fc.integer({ min: 0, max: 2 }),
    info: fc.constantFrom('', 'md', ' markdown title', 'ts'),
    indent: fc.constantFrom('', ' ', '   '),
    closeIndent: fc.constantFrom('', '  '),
    body: fc.array(fc.oneof(proseLine, anchorLine, nearMissLine, fc.constant('')), {
      maxLength: 5,
    }),
  })
  .map(({ char, length, longer, info, indent, closeIndent, body }) => [
    indent + char.repeat(length) + info,
    ...body,
    closeIndent + char.repeat(length + longer),
  ]);

/** A string part in parsed form: non-empty, no leading or trailing blank line, LF only, safe to format. */
export const stringPart = fc
  .array(
    fc.tuple(
      fc.oneof(
        { weight: 3, arbitrary: proseLine.map((l) => [l]) },
        { weight: 1, arbitrary: fenceBlock },
      ),
      fc.constantFrom(0, 0, 1, 2),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((blocks) => {
    const lines: string[] = [];
    blocks.forEach(([block, blanks], i) => {
      if (i > 0) for (let b = 0; b < blanks; b++) lines.push(b === 0 ? '' : ' \t');
      lines.push(...block);
    });
    return lines.join('\n');
  })
  .filter(formatsSafely);

/** Raw trees: sections with possibly repeated IDs and adjacent strings. */
const { parts: rawParts } = fc.letrec<{
  parts: unknown[];
  section: { id: string; parts: unknown[] };
}>((tie) => ({
  parts: fc.array(
    fc.oneof({ depthSize: 'small', withCrossShrink: true }, stringPart, tie('section')),
    { maxLength: 4 },
  ),
  section: fc.record({ id: sectionId, parts: tie('parts') }),
}));

/** Make section IDs unique (suffixing a counter) and merge adjacent strings: the parsed form. */
function toParsedForm(parts: readonly unknown[], used: Set<string>): KnowledgePart[] {
  const out: KnowledgePart[] = [];
  for (const part of parts) {
    if (typeof part === 'string') {
      const last = out[out.length - 1];
      if (typeof last !== 'string') out.push(part);
      else {
        // Two safe strings can make an unsafe one: `* a` before `   ```…` puts the fence in a list
        // item, which ends before the closing line. Such a part is left out, not merged.
        const merged = `${last}\n\n${part}`;
        if (formatsSafely(merged)) out[out.length - 1] = merged;
      }
      continue;
    }
    const section = part as { id: string; parts: unknown[] };
    let id = section.id;
    for (let n = 1; used.has(id); n++) id = `${section.id}-${n}`;
    used.add(id);
    out.push({ id, parts: toParsedForm(section.parts, used) });
  }
  return out;
}

/** A document in parsed form: `parse(format(doc))` deep-equals it. */
export const parsedDocument: fc.Arbitrary<KnowledgeDocument> = fc
  .record({
    id: sectionId,
    revision: fc.string({ minLength: 1, maxLength: 12 }),
    locale: fc.option(fc.constantFrom('en', 'zh-CN', 'de-CH'), { nil: undefined }),
    parts: rawParts,
  })
  .map(({ id, revision, locale, parts }) => {
    const doc = { id, revision, parts: toParsedForm(parts, new Set()) };
    return locale === undefined ? doc : { ...doc, locale };
  });

/** Every section of a document, pre-order, with its own and subtree texts computed naively. */
export function referenceSections(
  doc: KnowledgeDocument,
): Map<string, { self: string[]; subtree: string[] }> {
  const out = new Map<string, { self: string[]; subtree: string[] }>();
  const walk = (
    parts: readonly KnowledgePart[],
    open: { self: string[]; subtree: string[] }[],
  ): void => {
    for (const part of parts) {
      if (typeof part === 'string') {
        if (part === '') continue;
        open[open.length - 1]?.self.push(part);
        for (const o of open) o.subtree.push(part);
        continue;
      }
      const entry = { self: [] as string[], subtree: [] as string[] };
      out.set(part.id, entry);
      walk(part.parts, [...open, entry]);
    }
  };
  walk(doc.parts, []);
  return out;
}

/** All string parts of a document in pre-order. */
export function allTexts(doc: KnowledgeDocument): string[] {
  const texts: string[] = [];
  const walk = (parts: readonly KnowledgePart[]): void => {
    for (const part of parts) {
      if (typeof part === 'string') {
        if (part !== '') texts.push(part);
      } else walk(part.parts);
    }
  };
  walk(doc.parts);
  return texts;
}
