/**
 * `read_file` in parts: over the limit, the first part (cut at a block boundary, else a line end, else
 * the limit), `file.contentRange`, a `message` and `nextCursor`; the parts add up to the whole read;
 * `whole: true` keeps `CONTENT_TOO_LARGE`; cursors bound to the file, selection, limit and revision.
 */
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource, ReadFileInput, ReadFileOutput } from '../../src/agent/index.js';
import { startExploration } from '../../src/agent/exploration/index.js';
import { partEnd } from '../../src/markdown/partEnd.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const TEXT = [
  '# Long page',
  '',
  'First paragraph, one line.',
  '',
  '```js',
  'const a = 1;',
  '',
  'const b = 2;',
  '```',
  '',
  'A paragraph',
  'on two lines.',
].join('\n');

const ANCHORED = [
  '<!-- agent-section:intro -->',
  'Intro text that is long enough to matter.',
  '<!-- /agent-section:intro -->',
  '',
  '<!-- agent-section:details -->',
  'Details, with more words than the intro has.',
  '<!-- /agent-section:details -->',
].join('\n');

const source = (text = TEXT, options: { maxReadChars?: number; revision?: number } = {}) =>
  createCatalogSource(
    defineKnowledgeCatalog([
      parseKnowledgeDocument({ id: 'long', revision: 'r1', text }),
      parseKnowledgeDocument({ id: 'anchored', revision: 'r1', text: ANCHORED }),
    ]),
    { id: 'kb', revision: options.revision ?? 1, maxReadChars: options.maxReadChars },
  );

/** Every part of a read, following `nextCursor` alone. */
async function allParts(s: KnowledgeSource, input: ReadFileInput): Promise<ReadFileOutput[]> {
  const parts = [await s.readFile(input)];
  for (let guard = 0; parts[parts.length - 1]!.nextCursor !== null; guard++) {
    if (guard > 10_000) throw new Error('no end');
    parts.push(await s.readFile({ cursor: parts[parts.length - 1]!.nextCursor }));
  }
  return parts;
}

describe('read_file in parts', () => {
  it('a text within the limit is whole, with nextCursor null and no contentRange', async () => {
    const out = await source().readFile({ fileId: 'long' });
    expect(out.nextCursor).toBeNull();
    expect(out.file.contentRange).toBeUndefined();
    expect(out.message).toBeUndefined();
    expect(out.content).toBe(TEXT);
  });

  it('cuts at a blank line outside fenced code, never at the one inside the fence', async () => {
    const s = source();
    // The window reaches into the fence, past its blank line: the cut is the blank line before it.
    const limit = TEXT.indexOf('const b') + 3;
    const first = await s.readFile({ fileId: 'long', maxChars: limit });
    expect(first.content).toBe('# Long page\n\nFirst paragraph, one line.\n\n');
    expect(first.file.contentRange).toEqual({
      start: 0,
      end: first.content.length,
      total: TEXT.length,
    });
    expect(first.file.snapshotId).toBe((await s.readFile({ fileId: 'long' })).file.snapshotId);
    expect(first.message).toMatch(/characters 0 to 41 of 104.*cursor: nextCursor/);
    const parts = await allParts(s, { fileId: 'long', maxChars: limit });
    expect(parts.map((p) => p.content).join('')).toBe(TEXT);
    expect(parts.at(-1)!.nextCursor).toBeNull();
    expect(parts.at(-1)!.message).toMatch(/last part/);
    for (const p of parts) expect([...p.content].length).toBeLessThanOrEqual(limit);
    // Ranges follow each other.
    for (let i = 1; i < parts.length; i++)
      expect(parts[i]!.file.contentRange!.start).toBe(parts[i - 1]!.file.contentRange!.end);
  });

  it('without a blank line in reach, cuts at a line end; without one, at a code point boundary', () => {
    expect(partEnd('one line\ntwo line\nthree', 0, 20)).toBe(18);
    expect(partEnd('one\r\ntwo', 0, 6)).toBe(5);
    // Never between a CR and its LF: the line ends after both.
    expect(partEnd('one\r\ntwo', 0, 4)).toBe(4);
    expect(partEnd('abcdef', 0, 4)).toBe(4);
  });

  it('a single line longer than the limit is cut at code points, never inside a surrogate pair', async () => {
    const text = '😀'.repeat(25);
    const parts = await allParts(source(text), { fileId: 'long', maxChars: 7 });
    expect(parts.map((p) => p.content).join('')).toBe(text);
    expect(parts.map((p) => [...p.content].length)).toEqual([7, 7, 7, 4]);
    expect(parts[1]!.file.contentRange).toEqual({ start: 7, end: 14, total: 25 });
  });

  it('a part of a page with sections lists them; whole: true keeps CONTENT_TOO_LARGE', async () => {
    const s = source();
    const first = await s.readFile({ fileId: 'anchored', maxChars: 30 });
    expect(first.message).toMatch(/by `sectionIds` is the better way.*`intro` \d+, `details` \d+/);
    // Said with the first part only: an agent that goes on with the cursor chose parts.
    const second = await s.readFile({ cursor: first.nextCursor! });
    expect(second.message).not.toContain('better way');
    await expectKnowledgeError(s.readFile({ fileId: 'anchored', maxChars: 30, whole: true }), {
      code: 'CONTENT_TOO_LARGE',
      message: /`intro` \d+, `details` \d+/,
    });
    await expectKnowledgeError(s.readFile({ fileId: 'long', maxChars: 30, whole: true }), {
      code: 'CONTENT_TOO_LARGE',
      message: /omit `whole` to read it in parts/,
    });
    await expectKnowledgeError(s.readFile({ cursor: first.nextCursor, whole: true }), {
      code: 'INVALID_ARGUMENT',
      message: /has no parts/,
    });
  });

  it('reads sections and navigation files in parts too', async () => {
    const s = source();
    const sections = await allParts(s, {
      fileId: 'anchored',
      sectionIds: ['details', 'intro'],
      mode: 'self',
      maxChars: 20,
    });
    const whole = await s.readFile({
      fileId: 'anchored',
      sectionIds: ['details', 'intro'],
      mode: 'self',
    });
    expect(sections.map((p) => p.content).join('')).toBe(whole.content);
    expect(sections.every((p) => p.file.snapshotId === whole.file.snapshotId)).toBe(true);
    expect(sections[0]!.file.selection).toEqual(whole.file.selection);
    const index = await allParts(s, { path: 'index.md', maxChars: 40 });
    expect(index.length).toBeGreaterThan(1);
    expect(index.map((p) => p.content).join('')).toBe(
      (await s.readFile({ path: 'index.md' })).content,
    );
  });

  it('a cursor is bound to the file, the selection, the limit and the revision', async () => {
    const s = source();
    const first = await s.readFile({ fileId: 'long', maxChars: 30 });
    const cursor = first.nextCursor!;
    // Given again with the same arguments, it reads the same part as alone.
    expect(await s.readFile({ fileId: 'long', maxChars: 30, cursor })).toEqual(
      await s.readFile({ cursor }),
    );
    await expectKnowledgeError(s.readFile({ fileId: 'anchored', cursor }), {
      code: 'INVALID_CURSOR',
      message: /`fileId` "long", not "anchored"/,
    });
    await expectKnowledgeError(s.readFile({ fileId: 'long', maxChars: 31, cursor }), {
      code: 'INVALID_CURSOR',
      message: /`maxChars` 30, not 31/,
    });
    await expectKnowledgeError(s.readFile({ fileId: 'long', sectionIds: ['x'], cursor }), {
      code: 'INVALID_CURSOR',
    });
    await expectKnowledgeError(source(TEXT, { revision: 2 }).readFile({ cursor }), {
      code: 'STALE_CURSOR',
    });
    // The server's limit is part of it too: a replica with another maxReadChars.
    const server = source(TEXT, { maxReadChars: 30 });
    const byServer = await server.readFile({ fileId: 'long' });
    await expectKnowledgeError(
      source(TEXT, { maxReadChars: 25 }).readFile({ cursor: byServer.nextCursor }),
      {
        code: 'STALE_CURSOR',
        message: /read limit changed since this cursor was issued \(30 code points, now 25\)/,
      },
    );
    // `mode` defaults to "subtree" with `sectionIds`: spelt out beside the cursor, it is the same read.
    const sections = { fileId: 'anchored', sectionIds: ['intro', 'details'], maxChars: 30 };
    const bySections = await s.readFile(sections);
    expect(
      await s.readFile({ ...sections, mode: 'subtree', cursor: bySections.nextCursor }),
    ).toEqual(await s.readFile({ cursor: bySections.nextCursor }));
    await expectKnowledgeError(
      s.readFile({ ...sections, mode: 'self', cursor: bySections.nextCursor }),
      { code: 'INVALID_CURSOR', message: /`mode` "subtree", not "self"/ },
    );
    const listing = await s.listTree({ limit: 1 });
    await expectKnowledgeError(s.readFile({ cursor: listing.nextCursor }), {
      code: 'INVALID_CURSOR',
      message: /issued by `list_tree`/,
    });
  });

  it('catalog.read is unchanged: it still throws over its limit and never cuts', () => {
    const catalog = defineKnowledgeCatalog([
      parseKnowledgeDocument({ id: 'long', revision: 'r1', text: TEXT }),
    ]);
    expect(() =>
      catalog.read({ documentId: 'long', selection: { mode: 'document' }, maxChars: 10 }),
    ).toThrow(/maxChars/);
  });

  it('under a catalog default maxChars, parts are cut within it', async () => {
    const s = createCatalogSource(
      defineKnowledgeCatalog([parseKnowledgeDocument({ id: 'long', revision: 'r1', text: TEXT })], {
        maxChars: 50,
      }),
      { id: 'kb' },
    );
    const parts = await allParts(s, { fileId: 'long' });
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.map((p) => p.content).join('')).toBe(TEXT);
    for (const p of parts) expect([...p.content].length).toBeLessThanOrEqual(50);
  });
});

describe('exploration keeps parts apart from whole reads', () => {
  it('a first part is not answered as the whole read, and each part is its own evidence', async () => {
    const s = source(TEXT, { maxReadChars: 50 });
    const session = startExploration(s, { question: 'What is the long page about?' });
    await session.search();
    const first = await session.read({ fileId: 'long' });
    expect(first.file.contentRange).toBeDefined();
    const second = await session.read({ fileId: 'long' }, { cursor: first.nextCursor });
    expect(second.repeated).toBe(false);
    expect(second.content).not.toBe(first.content);
    expect(second.file.contentRange!.start).toBe(first.file.contentRange!.end);
    // The same first part again goes to the source (another limit would cut it otherwise).
    const again = await session.read({ fileId: 'long' }, { maxChars: 20 });
    expect(again.content.length).toBeLessThanOrEqual(20);
    const evidence = session.evidence();
    expect(evidence.map((e) => e.contentRange?.start)).toEqual([
      0,
      first.file.contentRange!.end,
      0,
    ]);
  });
});
