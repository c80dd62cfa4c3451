/**
 * Headings as the way into a long page: `get_file` lists them with their sizes, `read_file
 * { heading }` reads one range (in parts when long) with its place in the whole page, and the
 * errors name the call, the heading and the fix.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource, ReadFileInput, ReadFileOutput } from '../../src/agent/index.js';
import { countCodePoints } from '../../src/shared/codePoints.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';

const GUIDE = [
  '# Guide {#guide}',
  '',
  'Intro with **bold** words.',
  '',
  '## Install',
  '',
  'Run the installer. 😀 Then restart.',
  '',
  '```sh',
  '# not a heading',
  '```',
  '',
  '### On Linux',
  '',
  'Use the package.',
  '',
  '## Configure [the app](./app.md)',
  '',
  'Set the options.',
  '',
  '## Install',
  '',
  'A second install section.',
].join('\n');

const ANCHORED = [
  '# Anchored',
  '',
  '<!-- agent-section:a -->',
  '## Inside',
  '',
  'Anchored text.',
  '<!-- /agent-section:a -->',
].join('\n');

const source = (pages: Record<string, string> = { guide: GUIDE }, maxReadChars?: number) =>
  createCatalogSource(
    defineKnowledgeCatalog(
      Object.entries(pages).map(([id, text]) =>
        parseKnowledgeDocument({ id, revision: 'r1', text }),
      ),
    ),
    { id: 'kb', revision: 1, maxReadChars },
  );

async function allParts(s: KnowledgeSource, input: ReadFileInput): Promise<ReadFileOutput[]> {
  const parts = [await s.readFile(input)];
  while (parts[parts.length - 1]!.nextCursor !== null)
    parts.push(await s.readFile({ cursor: parts[parts.length - 1]!.nextCursor }));
  return parts;
}

describe('get_file headings', () => {
  it('lists every heading outside code with its ID, text, depth and size', async () => {
    const out = await source().getFile({ fileId: 'guide' });
    expect(out.headings.map((h) => [h.id, h.text, h.depth])).toEqual([
      ['guide', 'Guide', 1],
      ['install', 'Install', 2],
      ['on-linux', 'On Linux', 3],
      ['configure-the-app', 'Configure the app', 2],
      ['install-1', 'Install', 2],
    ]);
    const whole = (await source().readFile({ fileId: 'guide' })).content;
    expect(out.headings[0]!.chars).toBe(countCodePoints(whole));
  });

  it('gives an empty page and navigation files no headings', async () => {
    const s = source({ empty: '', guide: GUIDE });
    expect((await s.getFile({ fileId: 'empty' })).headings).toEqual([]);
    expect((await s.getFile({ fileId: 'index.md' })).headings).toEqual([]);
  });
});

describe('read_file { heading }', () => {
  it('reads the range from the heading to the next of the same or a higher level', async () => {
    const s = source();
    const whole = (await s.readFile({ fileId: 'guide' })).content;
    const out = await s.readFile({ fileId: 'guide', heading: 'install' });
    expect(out.content.startsWith('## Install\n')).toBe(true);
    expect(out.content).toContain('### On Linux');
    expect(out.content).not.toContain('## Configure');
    const { start, end } = out.file.heading!;
    expect(out.file.heading).toEqual({ id: 'install', text: 'Install', depth: 2, start, end });
    expect([...whole].slice(start, end).join('')).toBe(out.content);
    expect(out.file.selection).toEqual({ mode: 'document' });
    expect(out.file.snapshotId).toBe((await s.readFile({ fileId: 'guide' })).file.snapshotId);
    expect(out.nextCursor).toBeNull();
  });

  it('reads a long range in parts, contentRange counting within the range', async () => {
    const s = source({ guide: GUIDE }, 40);
    const parts = await allParts(s, { path: 'pages/guide.md', heading: 'guide' });
    expect(parts.length).toBeGreaterThan(1);
    const joined = parts.map((p) => p.content).join('');
    const total = countCodePoints(joined);
    expect(parts.map((p) => p.file.contentRange!.total)).toEqual(parts.map(() => total));
    expect(parts[0]!.file.contentRange!.start).toBe(0);
    expect(parts.at(-1)!.file.contentRange!.end).toBe(total);
    for (const p of parts) expect(p.file.heading!.id).toBe('guide');
    expect(parts[0]!.message).toMatch(/^Part of heading `guide` of `pages\/guide\.md`/);
    expect(joined).toBe((await source().readFile({ fileId: 'guide' })).content);
  });

  it('reads headings inside anchored sections, in the whole page text', async () => {
    const s = source({ anchored: ANCHORED });
    const out = await s.readFile({ fileId: 'anchored', heading: 'inside' });
    expect(out.content).toBe('## Inside\n\nAnchored text.');
  });

  it('refuses an unknown heading as NOT_FOUND naming the closest IDs', async () => {
    await expectKnowledgeError(source().readFile({ fileId: 'guide', heading: 'instal' }), {
      code: 'NOT_FOUND',
      message:
        /`read_file`: the page `guide` has no heading with the ID `instal`\. Close IDs: `install`.*get_file/,
    });
    await expectKnowledgeError(
      source({ empty: 'text' }).readFile({ fileId: 'empty', heading: 'x' }),
      {
        code: 'NOT_FOUND',
        message: /has no headings/,
      },
    );
  });

  it('refuses heading with sectionIds, with mode, and on navigation files', async () => {
    const s = source({ anchored: ANCHORED });
    await expectKnowledgeError(
      s.readFile({ fileId: 'anchored', heading: 'inside', sectionIds: ['a'] }),
      { code: 'INVALID_ARGUMENT', message: /`heading` and `sectionIds` are exclusive/ },
    );
    await expectKnowledgeError(
      s.readFile({ fileId: 'anchored', heading: 'inside', mode: 'self' }),
      {
        code: 'INVALID_ARGUMENT',
        message: /`mode` applies only with `sectionIds`/,
      },
    );
    await expectKnowledgeError(s.readFile({ path: 'index.md', heading: 'x' }), {
      code: 'INVALID_ARGUMENT',
      message: /navigation file and has no headings\. Omit `heading`/,
    });
  });

  it('binds a cursor to the heading: another heading with it is refused', async () => {
    const s = source({ guide: GUIDE }, 40);
    const first = await s.readFile({ fileId: 'guide', heading: 'guide' });
    await expectKnowledgeError(
      s.readFile({ fileId: 'guide', heading: 'install', cursor: first.nextCursor }),
      { code: 'INVALID_CURSOR' },
    );
  });

  it('advises reading by heading when a page without sections comes in parts', async () => {
    const out = await source({ guide: GUIDE }, 40).readFile({ fileId: 'guide' });
    expect(out.message).toMatch(
      /Read one heading by `heading` instead \(size in characters\): `install` \d+, `configure-the-app` \d+, `install-1` \d+/,
    );
    // Not the title heading, whose range is the whole page.
    expect(out.message).not.toContain('`guide`');
  });
});

/** A page made of headings (ATX, setext, with IDs, repeated), paragraphs and code, CRLF or LF. */
const page = fc
  .tuple(
    fc.array(
      fc.oneof(
        fc
          .tuple(
            fc.integer({ min: 1, max: 6 }),
            fc.constantFrom('A', 'Intro', 'Über 🎉', '中文', 'A {#x}'),
          )
          .map(([d, t]) => `${'#'.repeat(d)} ${t}`),
        fc.constantFrom(
          'Title\n===',
          'Sub\n---',
          'text 😀 more',
          '```\n# code\n```',
          '> ## quoted',
          '- # item',
        ),
      ),
      { maxLength: 12 },
    ),
    fc.constantFrom('\n', '\r\n', '\n\n'),
  )
  .map(([blocks, eol]) => blocks.join(eol + eol).replaceAll('\n', eol));

describe('property: a heading read is the slice of the whole page between its offsets', () => {
  it('for every heading of every page, in parts or whole', async () => {
    await fc.assert(
      fc.asyncProperty(page, fc.integer({ min: 8, max: 200 }), async (text, limit) => {
        const s = source({ p: text }, limit);
        const whole = (await allParts(s, { fileId: 'p' })).map((o) => o.content).join('');
        const points = [...whole];
        const { headings } = await s.getFile({ fileId: 'p' });
        for (const h of headings) {
          const parts = await allParts(s, { fileId: 'p', heading: h.id });
          const { start, end } = parts[0]!.file.heading!;
          expect(parts.map((p) => p.content).join('')).toBe(points.slice(start, end).join(''));
          expect(end - start).toBe(h.chars);
        }
      }),
      { seed: 20261207 },
    );
  });
});

describe('search_files heading', () => {
  const pages = {
    guide: GUIDE,
    lead: 'Zebras come first here.\n\n# Later\n\nNothing about them.',
    anchored: ANCHORED,
  };

  it('names the innermost heading whose range holds the best match', async () => {
    const out = await source(pages).searchFiles({ query: 'installer restart' });
    const item = out.items.find((i) => i.fileId === 'guide')!;
    expect(item.heading).toEqual({ id: 'install', text: 'Install' });
    expect(item.sourceExcerpt).toContain('restart');
  });

  it('cuts the excerpt from that heading range only', async () => {
    const out = await source(pages).searchFiles({ query: 'options' });
    const item = out.items.find((i) => i.fileId === 'guide')!;
    expect(item.heading).toEqual({ id: 'configure-the-app', text: 'Configure the app' });
    expect(item.sourceExcerpt).toContain('Set the options.');
    expect(item.sourceExcerpt).not.toContain('second install');
  });

  it('is null when the match comes before the first heading', async () => {
    const out = await source(pages).searchFiles({ query: 'zebras' });
    expect(out.items.find((i) => i.fileId === 'lead')!.heading).toBeNull();
  });

  it('names a heading inside an anchored section, beside its section ID', async () => {
    const out = await source(pages).searchFiles({ query: 'anchored text' });
    const item = out.items.find((i) => i.fileId === 'anchored')!;
    expect(item.sectionIds).toEqual(['a']);
    expect(item.heading).toEqual({ id: 'inside', text: 'Inside' });
  });
});

describe('exploration: a heading read is a page read', () => {
  it('counts as a read, is kept apart from the whole page, and is evidence with its place', async () => {
    const { startExploration } = await import('../../src/agent/exploration/index.js');
    const session = startExploration(source(), { question: 'How do I install it?' });
    await session.search();
    const heading = await session.read({ fileId: 'guide' }, { heading: 'install' });
    expect(heading.repeated).toBe(false);
    expect(heading.content.startsWith('## Install')).toBe(true);
    expect((await session.read({ fileId: 'guide' }, { heading: 'install' })).repeated).toBe(true);
    const whole = await session.read({ fileId: 'guide' });
    expect(whole.repeated).toBe(false);
    expect(session.status).toMatchObject({ readsUsed: 2 });
    const [first, second] = session.evidence();
    expect(first).toMatchObject({ fileId: 'guide', selection: { mode: 'document' } });
    expect(first!.heading).toEqual(heading.file.heading);
    expect(second!.heading).toBeUndefined();
  });
});
