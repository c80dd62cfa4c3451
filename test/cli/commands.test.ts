/**
 * `outline`, `read` and `search` on the built bin: each output equals what the same folder gives in
 * this process through `loadKnowledgeDirectory`, `catalog.read` and `createCatalogSource`; usage errors
 * exit 2 with one line, a folder with problems exits 1 with the problems on stderr.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SearchFilesInput, SearchFilesOutput } from '../../src/agent/index.js';
import { linesOf, requireBuiltCli, runCli } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { codePoints, loadInProcess, readAll } from '../helpers/cli-inProcess.js';
import {
  documentIdOf,
  HANDBOOK,
  sectionCount,
  sectionsInOrder,
  treeOf,
  type KnowledgeFile,
} from '../helpers/cli-knowledge.js';
import { parseProblemLine } from '../helpers/cli-problems.js';
import { pageHeadings } from '../../src/agent/files/pageHeadings.js';
import { timeless } from '../helpers/versions.js';

/** The headings `get_file` lists for a document of the folder. */
const headingsOf = (documentId: string) =>
  pageHeadings(readAll(local.loaded, documentId, { mode: 'document' }).content).map((h) => ({
    id: h.id,
    text: h.text,
    depth: h.depth,
    chars: h.end - h.start,
  }));

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
let dir: string;
let broken: string;
let local: Awaited<ReturnType<typeof loadInProcess>>;

beforeAll(async () => {
  await requireBuiltCli();
  const root = await tempRoot();
  dir = join(root, 'handbook');
  broken = join(root, 'broken');
  await writeTree(dir, treeOf(HANDBOOK));
  await writeTree(broken, {
    'ok.md': '# Fine\n',
    'bad.md': '# Bad\n<!-- agent-section:left-open -->\n',
  });
  local = await loadInProcess(dir);
});

const GUIDE = HANDBOOK[0]!;
const guideId = documentIdOf(GUIDE);
const fileOf = (documentId: string): KnowledgeFile =>
  HANDBOOK.find((file) => documentIdOf(file) === documentId)!;

/** A section of `outline --json`. */
interface OutlineSection {
  readonly id: string;
  readonly self: number;
  readonly subtree: number;
  readonly sections: readonly OutlineSection[];
}

/** The outline of a document: its sections as written in the fixture, with sizes from `catalog.read`. */
function expectedSections(documentId: string, parts: KnowledgeFile['parts']): OutlineSection[] {
  return sectionsInOrder(parts)
    .filter((s) => s.depth === 1)
    .map(({ section }) => ({
      id: section.id,
      self: codePoints(
        readAll(local.loaded, documentId, { mode: 'self', sectionIds: [section.id] }).content,
      ),
      subtree: codePoints(
        readAll(local.loaded, documentId, { mode: 'subtree', sectionIds: [section.id] }).content,
      ),
      sections: expectedSections(documentId, section.parts),
    }));
}

describe.concurrent('outline', () => {
  it('--json: each document with its file, locale, revision, size and section tree, sizes as catalog.read gives them', async () => {
    const result = await runCli(['outline', dir, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const { catalog, paths } = local.loaded;
    expect(JSON.parse(result.stdout)).toEqual({
      documents: catalog.ids.map((id) => ({
        id,
        file: fileOf(id).path,
        locale: catalog.document(id).locale ?? null,
        revision: catalog.document(id).revision,
        chars: codePoints(readAll(local.loaded, id, { mode: 'document' }).content),
        sections: expectedSections(id, fileOf(id).parts),
        headings: headingsOf(id),
      })),
    });
    expect(Object.values(paths).sort()).toEqual(HANDBOOK.map((file) => file.path).sort());
  });

  it('text: a line per document, then each section indented by depth with `self N · subtree M`, then each heading, then a total', async () => {
    const result = await runCli(['outline', dir]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const lines = linesOf(result.stdout);
    const expected: (string | RegExp)[] = [];
    let headings = 0;
    for (const id of local.loaded.catalog.ids) {
      const file = fileOf(id);
      const chars = codePoints(readAll(local.loaded, id, { mode: 'document' }).content);
      expected.push(new RegExp(`^${id}  \\(${file.path}[^)]*, ${chars} chars\\)$`));
      for (const { id: sectionId, depth } of sectionsInOrder(file.parts)) {
        const self = codePoints(
          readAll(local.loaded, id, { mode: 'self', sectionIds: [sectionId] }).content,
        );
        const subtree = codePoints(
          readAll(local.loaded, id, { mode: 'subtree', sectionIds: [sectionId] }).content,
        );
        expected.push(`${'  '.repeat(depth)}${sectionId}  self ${self} · subtree ${subtree}`);
      }
      for (const h of headingsOf(id))
        expected.push(
          `${'  '.repeat(h.depth)}${'#'.repeat(h.depth)} ${h.text}  {#${h.id}}  ${h.chars}`,
        );
      headings += headingsOf(id).length;
    }
    expect(headings).toBeGreaterThan(0);
    expected.push(
      `${HANDBOOK.length} documents, ${sectionCount(HANDBOOK)} sections, ${headings} headings`,
    );
    expect(lines).toHaveLength(expected.length);
    lines.forEach((line, index) => {
      const want = expected[index]!;
      if (typeof want === 'string') expect(line).toBe(want);
      else expect(line).toMatch(want);
    });
  });

  it('a folder with problems: exit 1, nothing on stdout, the problems on stderr as check prints them', async () => {
    const result = await runCli(['outline', broken]);
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const problems = linesOf(result.stderr)
      .map((line) => parseProblemLine(line))
      .filter((p) => p !== undefined);
    expect(problems.map(({ file, line, code }) => ({ file, line, code }))).toEqual([
      { file: join(broken, 'bad.md'), line: 2, code: 'UNCLOSED_SECTION' },
    ]);
    expect(linesOf(result.stderr).at(-1)).toContain(`knowledge-kit check ${broken}`);
  });
});

describe.concurrent('read', () => {
  it('a whole document: the content on stdout (with a final line break), the snapshot ID on stderr', async () => {
    const snapshot = readAll(local.loaded, guideId, { mode: 'document' });
    const result = await runCli(['read', dir, guideId]);
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: `${snapshot.content}\n`,
      stderr: `snapshot ${snapshot.id}\n`,
    });
  });

  it('--self with comma-separated or repeated IDs, and --subtree', async () => {
    const [returns, delivery] = sectionsInOrder(GUIDE.parts)
      .filter((s) => s.depth === 1)
      .map((s) => s.id);
    const self = readAll(local.loaded, guideId, {
      mode: 'self',
      sectionIds: [returns!, delivery!],
    });
    const subtree = readAll(local.loaded, guideId, { mode: 'subtree', sectionIds: [returns!] });
    const [commas, repeated, tree] = await Promise.all([
      runCli(['read', dir, guideId, '--self', `${returns},${delivery}`]),
      runCli(['read', dir, guideId, '--self', returns!, '--self', delivery!]),
      runCli(['read', dir, guideId, '--subtree', returns!]),
    ]);
    expect(commas).toEqual({
      code: 0,
      signal: null,
      stdout: `${self.content}\n`,
      stderr: `snapshot ${self.id}\n`,
    });
    expect(repeated).toEqual(commas);
    expect(tree).toEqual({
      code: 0,
      signal: null,
      stdout: `${subtree.content}\n`,
      stderr: `snapshot ${subtree.id}\n`,
    });
    expect(subtree.content).not.toBe(
      readAll(local.loaded, guideId, { mode: 'self', sectionIds: [returns!] }).content,
    );
  });

  it('--heading: the heading range on stdout, its place in the page on stderr; an unknown one exits 2', async () => {
    const withHeadings = local.loaded.catalog.ids.find((id) => headingsOf(id).length > 1)!;
    const heading = headingsOf(withHeadings)[1]!;
    const whole = readAll(local.loaded, withHeadings, { mode: 'document' }).content;
    const [h] = pageHeadings(whole).filter((x) => x.id === heading.id);
    const result = await runCli(['read', dir, withHeadings, '--heading', heading.id]);
    expect(result.code).toBe(0);
    const range = whole.slice(h!.from, h!.to);
    expect(result.stdout).toBe(range.endsWith('\n') ? range : `${range}\n`);
    expect(result.stderr).toContain(
      `heading ${heading.id}: characters ${h!.start} to ${h!.end} of the whole document's text`,
    );
    const unknown = await runCli(['read', dir, withHeadings, '--heading', 'no-such-heading']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(
      /NOT_FOUND: `read_file`: the page `[^`]+` has no heading with the ID `no-such-heading`/,
    );
    const both = await runCli(['read', dir, withHeadings, '--heading', heading.id, '--self', 'x']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('give --heading or --self/--subtree, not both');
  });

  it('--json: the whole snapshot', async () => {
    const [first] = sectionsInOrder(GUIDE.parts);
    const snapshot = readAll(local.loaded, guideId, { mode: 'subtree', sectionIds: [first!.id] });
    const result = await runCli(['read', dir, guideId, '--subtree', first!.id, '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual(JSON.parse(JSON.stringify(snapshot)));
  });

  it('--max-chars: exactly the size reads whole; one less reads in parts, each printing the command for the next', async () => {
    const whole = readAll(local.loaded, guideId, { mode: 'document' }).content;
    const size = codePoints(whole);
    const fits = await runCli(['read', dir, guideId, '--max-chars', String(size)]);
    expect(fits.code).toBe(0);
    expect(fits.stdout).toBe(whole.endsWith('\n') ? whole : `${whole}\n`);
    expect(fits.stderr).not.toContain('part:');
    let args = ['read', dir, guideId, '--max-chars', String(size - 1)];
    const parts: string[] = [];
    for (let guard = 0; guard < 10; guard++) {
      const result = await runCli([...args, '--json']);
      expect(result.code, result.stderr).toBe(0);
      const output = JSON.parse(result.stdout) as { content: string; nextCursor: string | null };
      parts.push(output.content);
      if (output.nextCursor === null) break;
      const text = await runCli(args);
      expect(text.stderr).toMatch(
        /^part: characters \d+ to \d+ of \d+; the next: knowledge-kit read /m,
      );
      args = [
        ...args.filter((a, i, all) => a !== '--cursor' && all[i - 1] !== '--cursor'),
        '--cursor',
        output.nextCursor,
      ];
    }
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.join('')).toBe(whole);
    const bad = await runCli(['read', dir, guideId, '--cursor', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-chars');
  });

  it('usage errors exit 2 with one line: unknown document, unknown section, --self with --subtree, no document, --max-chars 0', async () => {
    const [first] = sectionsInOrder(GUIDE.parts);
    const results = await Promise.all([
      runCli(['read', dir, 'no-such-doc']),
      runCli(['read', dir, guideId, '--self', 'no-such-section']),
      runCli(['read', dir, guideId, '--self', first!.id, '--subtree', first!.id]),
      runCli(['read', dir]),
      runCli(['read', dir, guideId, '--max-chars', '0']),
    ]);
    for (const result of results) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
    }
    const [doc, sectionResult, both, none, zero] = results.map((r) => r.stderr);
    expect(doc).toContain('`no-such-doc`');
    expect(doc).toContain(`\`${dir}\` has no document \`no-such-doc\`.`);
    expect(doc).toContain(`\`knowledge-kit outline ${dir}\``);
    expect(sectionResult).toContain('`no-such-section`');
    expect(sectionResult).toContain('Fix the ID after --self or --subtree');
    for (const line of [doc, sectionResult]) expect(line).not.toMatch(/request\.|catalog\./);
    expect(both).toMatch(/--self.*--subtree/);
    expect(none).toContain('knowledge-kit read --help');
    expect(zero).toContain('--max-chars');
  });

  it('a folder with problems: exit 1 for read and search, problems on stderr', async () => {
    const results = await Promise.all([
      runCli(['read', broken, 'ok']),
      runCli(['search', broken, 'fine']),
    ]);
    for (const result of results) {
      expect(result.code).toBe(1);
      expect(result.stdout).toBe('');
      expect(
        linesOf(result.stderr).some((line) => parseProblemLine(line)?.code === 'UNCLOSED_SECTION'),
      ).toBe(true);
    }
  });
});

describe.concurrent('search', () => {
  const QUERY = 'return window refund';

  it('--json: the search_files output of the in-process source, as is', async () => {
    const result = await runCli(['search', dir, QUERY, '--json']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const expected = await local.source.searchFiles({ query: QUERY });
    expect(expected.items.length).toBeGreaterThan(0);
    // The command loaded the folder itself: its publishedAt is its own load time.
    expect(timeless(JSON.parse(result.stdout))).toEqual(timeless(expected));
  });

  it('--path-prefix, --tag and --locale: the filtered search_files output; a filter that keeps no page says which', async () => {
    const all = await local.source.searchFiles({ query: QUERY });
    const path = all.items.at(-1)!.path;
    const prefix = path.slice(0, path.lastIndexOf('/') + 1);
    const [kept, none, untagged, bad] = await Promise.all([
      runCli([
        'search',
        dir,
        QUERY,
        '--json',
        '--path-prefix',
        prefix,
        '--path-prefix',
        'pages/none/',
      ]),
      runCli(['search', dir, QUERY, '--locale', 'xx-none']),
      runCli(['search', dir, QUERY, '--tag', 'no-such-tag']),
      runCli(['search', dir, QUERY, '--path-prefix', '/pages']),
    ]);
    const expected = await local.source.searchFiles({
      query: QUERY,
      pathPrefix: [prefix, 'pages/none/'],
    });
    expect(expected.items.length).toBeGreaterThan(0);
    expect(expected.items.every((item) => item.path.startsWith(prefix))).toBe(true);
    expect(kept.code).toBe(0);
    // The command loaded the folder itself: its publishedAt is its own load time.
    expect(timeless(JSON.parse(kept.stdout))).toEqual(timeless(expected));
    for (const [result, filter] of [
      [none, { locale: 'xx-none' }],
      [untagged, { tags: ['no-such-tag'] }],
    ] as const) {
      const { message } = await local.source.searchFiles({ query: QUERY, ...filter });
      expect(message).not.toBeNull();
      expect(result.code).toBe(0);
      expect(linesOf(result.stdout)).toEqual([
        `nothing found for ${JSON.stringify(QUERY)}: ${message}`,
      ]);
    }
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^knowledge-kit search: INVALID_ARGUMENT: .*pathPrefix/);
  });

  it('text: each candidate`s score, path, file ID, sections and heading, then its excerpt, in the source`s order', async () => {
    const result = await runCli(['search', dir, QUERY]);
    expect(result.code).toBe(0);
    const expected = await local.source.searchFiles({ query: QUERY });
    const lines = linesOf(result.stdout);
    const items = lines.filter((line) => !line.startsWith(' ')).slice(0, -1);
    expect(items).toEqual(
      expected.items.map(
        (item) =>
          `${item.score.toFixed(3)}  ${item.path}  (${item.fileId})${item.sectionIds.length > 0 ? `  sections: ${item.sectionIds.join(', ')}` : ''}${item.heading === null ? '' : `  heading: ${item.heading.text} {#${item.heading.id}}`}`,
      ),
    );
    // The example pages have headings, so the text names some.
    expect(items.some((line) => line.includes('  heading: '))).toBe(
      expected.items.some((item) => item.heading !== null),
    );
    expect(lines.filter((line) => line.startsWith(' ')).map((line) => line.trim())).toEqual(
      expected.items.map((item) => item.sourceExcerpt.replace(/\s+/g, ' ').trim()),
    );
    expect(lines.at(-1)).toMatch(new RegExp(`^${expected.items.length} candidates?`));
  });

  it('--mode file and --limit 1 pass through; a cut list says so', async () => {
    const query = 'delivery billing notes';
    const all: SearchFilesOutput = await local.source.searchFiles({ query, mode: 'file' });
    expect(all.items.length).toBeGreaterThan(1);
    const input: SearchFilesInput = { query, mode: 'file', limit: 1 };
    const [json, text] = await Promise.all([
      runCli(['search', dir, query, '--mode', 'file', '--limit', '1', '--json']),
      runCli(['search', dir, query, '--mode', 'file', '--limit', '1']),
    ]);
    const expected = await local.source.searchFiles(input);
    expect(expected.items.map((item) => item.fileId)).toEqual([all.items[0]!.fileId]);
    const output = JSON.parse(json.stdout) as SearchFilesOutput;
    expect(output.items.map((item) => item.fileId)).toEqual(
      expected.items.map((item) => item.fileId),
    );
    // Cursors are signed with each process's own key: only whether there is one is the same.
    expect(timeless({ ...output, nextCursor: typeof output.nextCursor })).toEqual(
      timeless({ ...expected, nextCursor: typeof expected.nextCursor }),
    );
    expect(text.code).toBe(0);
    expect(linesOf(text.stdout).at(-1)).toBe('1 candidate; more with a larger --limit');
  });

  it('nothing found: exit 0 with a hint for the author, not the agent`s `index.md` advice', async () => {
    const query = 'xylophone zeppelin';
    const expected = await local.source.searchFiles({ query });
    expect(expected.items).toEqual([]);
    const result = await runCli(['search', dir, query]);
    expect(result).toEqual({
      code: 0,
      signal: null,
      stdout: `nothing found for "xylophone zeppelin". Try other words, such as those of a heading; \`knowledge-kit outline ${dir}\` lists every document and section.\n`,
      stderr: '',
    });
    expect(result.stdout).not.toContain('index.md');
  });

  it('usage errors exit 2 with one line: --limit 0, --limit 51, --mode bogus, no query', async () => {
    const results = await Promise.all([
      runCli(['search', dir, QUERY, '--limit', '0']),
      runCli(['search', dir, QUERY, '--limit', '51']),
      runCli(['search', dir, QUERY, '--mode', 'bogus']),
      runCli(['search', dir]),
    ]);
    for (const result of results) {
      expect(result.code, result.stderr).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
    }
    expect(results[0]!.stderr).toContain('--limit');
    expect(results[1]!.stderr).toContain('`51`');
    expect(results[2]!.stderr).toContain('`bogus`');
    expect(results[3]!.stderr).toContain('knowledge-kit search --help');
  });
});
