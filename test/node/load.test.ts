import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import {
  defineKnowledgeCatalog,
  parseKnowledgeDocument,
  type KnowledgeSnapshot,
} from '../../src/index.js';
import { loadKnowledgeDirectory, type LoadedKnowledgeDirectory } from '../../src/node/index.js';
import { reachableObjects } from '../helpers/frozen.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { placeAt, placeOf } from '../helpers/place.js';
import { expectPlacedIssue, sha256Revision, sortedIssues } from '../helpers/loadErrors.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

/** The document-mode read of `id` in a loaded folder. */
function readWhole(loaded: LoadedKnowledgeDirectory, id: string): KnowledgeSnapshot {
  return loaded.catalog.read({ documentId: id, selection: { mode: 'document' } });
}

/** The document-mode read of `body` parsed on its own, as the loader should give it. */
function readParsed(
  id: string,
  revision: string,
  body: string,
  locale?: string,
): KnowledgeSnapshot {
  const catalog = defineKnowledgeCatalog([
    parseKnowledgeDocument({ id, revision, text: body, locale }),
  ]);
  return catalog.read({ documentId: id, selection: { mode: 'document' } });
}

describe('which files load, in which order, under which IDs and page paths', () => {
  const loaded = [
    'b.md',
    'a.md',
    'B.md',
    'a-b.md',
    'a/b.md',
    'Z.md',
    'é.md',
    '😀.md',
    'ﬁ.md',
    'guides/returns.md',
  ];
  const ignored = [
    'notes.txt',
    'readme.mdown',
    'a.md.bak',
    'upper.MD',
    'node_modules/pkg/readme.md',
    'guides/node_modules/dep/readme.md',
    '.hidden/secret.md',
    'guides/.drafts/draft.md',
  ];
  const tree = Object.fromEntries(
    [...loaded, ...ignored].map((path) => [path, `Text of ${path}.\n`]),
  );
  // UTF-16 order: a surrogate pair (U+1F600 is D83D DE00) sorts before U+FB01, unlike code-point order.
  const inOrder = [...loaded].sort();

  it('loads every .md file outside node_modules and dot folders, in UTF-16 code-unit order of the path', async () => {
    expect(inOrder.indexOf('😀.md')).toBeLessThan(inOrder.indexOf('ﬁ.md'));
    const result = await loadKnowledgeDirectory(await folder(tree));
    const ids = inOrder.map((path) => path.slice(0, -'.md'.length));
    expect(result.documents.map((document) => document.id)).toEqual(ids);
    expect(result.catalog.ids).toEqual(ids);
    expect(Object.keys(result.paths)).toEqual(ids);
    for (const path of inOrder) {
      const id = path.slice(0, -'.md'.length);
      expect(result.paths[id]).toBe(path);
      expect(result.files[id]).toEqual({ path: `pages/${path}`, frontmatter: {} });
      expect(readWhole(result, id).content).toBe(`Text of ${path}.`);
    }
  });

  it('takes the folder as a path string, a relative path or a file: URL, and reports it as an absolute path', async () => {
    const dir = await folder({ 'guides/returns.md': 'Returns.\n', 'faq.md': 'FAQ.\n' });
    const byPath = await loadKnowledgeDirectory(dir);
    const byRelative = await loadKnowledgeDirectory(relative(process.cwd(), dir));
    const byUrl = await loadKnowledgeDirectory(pathToFileURL(dir));
    const bySlashUrl = await loadKnowledgeDirectory(new URL(`${pathToFileURL(dir).href}/`));
    for (const result of [byPath, byRelative, byUrl, bySlashUrl]) {
      expect(result.directory).toBe(dir);
      expect(result.catalog.ids).toEqual(['faq', 'guides/returns']);
      expect(result.paths).toEqual({ faq: 'faq.md', 'guides/returns': 'guides/returns.md' });
    }
  });

  describe('include and exclude refine the set', () => {
    const refinable = {
      'top.md': 'Top.\n',
      'guides/a.md': 'A.\n',
      'guides/drafts/b.md': 'B.\n',
      'notes/c.md': 'C.\n',
      'notes/d.txt': 'D.\n',
      'node_modules/e.md': 'E.\n',
    };
    it.each([
      { options: { include: ['guides/**'] }, paths: ['guides/a.md', 'guides/drafts/b.md'] },
      {
        options: { exclude: ['guides/drafts/**'] },
        paths: ['guides/a.md', 'notes/c.md', 'top.md'],
      },
      {
        options: { include: ['guides/**', 'notes/**'], exclude: ['**/drafts/**'] },
        paths: ['guides/a.md', 'notes/c.md'],
      },
      { options: { include: ['notes/*'] }, paths: ['notes/c.md'] },
      { options: { include: ['node_modules/*.md', 'top.md'] }, paths: ['top.md'] },
    ])('$options loads $paths', async ({ options, paths }) => {
      const result = await loadKnowledgeDirectory(await folder(refinable), options);
      expect(Object.values(result.paths)).toEqual(paths);
      expect(result.documents.map((document) => document.id)).toEqual(
        paths.map((path) => path.slice(0, -'.md'.length)),
      );
    });

    it('never loads a dot folder, even when include names it', async () => {
      const dir = await folder({
        '.drafts/secret.md': 'Secret.\n',
        'guides/.wip/x.md': 'WIP.\n',
        'top.md': 'Top.\n',
      });
      const result = await loadKnowledgeDirectory(dir, {
        include: ['.drafts/*.md', 'guides/.wip/*.md', 'top.md'],
      });
      expect(Object.values(result.paths)).toEqual(['top.md']);
    });
  });

  it('refuses a file whose page path cannot be a page path, naming the file', async () => {
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'back\\slash.md': 'x\n', 'ok.md': 'ok\n' })),
    );
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', file: 'back\\slash.md' });
    expect(error.issues[0]?.message.startsWith('back\\slash.md: ')).toBe(true);
  });
});

describe('revision', () => {
  it('is sha256: and the hex SHA-256 of the file bytes, BOM and CRLF included', async () => {
    const tree = {
      'plain.md': 'Plain text.\n',
      'bom.md': '\ufeff---\ntitle: With a BOM\n---\nBody.\n',
      'crlf.md': '---\r\ntitle: CRLF\r\n---\r\nBody.\r\n',
      'utf8.md': '中文，😀 and é.\n',
    };
    const result = await loadKnowledgeDirectory(await folder(tree));
    expect(Buffer.from(tree['bom.md'])[0]).toBe(0xef);
    for (const [path, text] of Object.entries(tree)) {
      const id = path.slice(0, -'.md'.length);
      const expected = sha256Revision(Buffer.from(text, 'utf8'));
      expect(result.catalog.document(id).revision).toBe(expected);
      expect(result.documents.find((document) => document.id === id)?.revision).toBe(expected);
      expect(readWhole(result, id).revision).toBe(expected);
    }
  });
});

describe('front matter', () => {
  const body =
    'Intro text.\n<!-- agent-section:window -->\nThirty days.\n<!-- /agent-section:window -->\n';
  const text = [
    '---',
    'id: guide/returns',
    'locale: en-US',
    'title: Returns and refunds',
    'description: "How returns work: windows, labels, refunds."',
    'tags: [returns, billing]',
    'owner:',
    '  name: Ann',
    '  team: support',
    'weight: 3',
    'draft: false',
    'aliases: [refunds, "give back"]',
    '---',
    body,
  ].join('\n');
  const frontmatter = {
    id: 'guide/returns',
    locale: 'en-US',
    title: 'Returns and refunds',
    description: 'How returns work: windows, labels, refunds.',
    tags: ['returns', 'billing'],
    owner: { name: 'Ann', team: 'support' },
    weight: 3,
    draft: false,
    aliases: ['refunds', 'give back'],
  };

  it('uses id, locale, title and description, keeps every key as frontmatter, and is not body text', async () => {
    const result = await loadKnowledgeDirectory(await folder({ 'returns.md': text }));
    expect(result.catalog.ids).toEqual(['guide/returns']);
    expect(result.paths).toEqual({ 'guide/returns': 'returns.md' });
    expect(result.files['guide/returns']).toEqual({
      path: 'pages/returns.md',
      title: 'Returns and refunds',
      description: 'How returns work: windows, labels, refunds.',
      frontmatter,
    });
    const document = result.catalog.document('guide/returns');
    expect(document.locale).toBe('en-US');
    expect(result.catalog.sectionIds('guide/returns')).toEqual(['window']);
    const revision = sha256Revision(text);
    expect(readWhole(result, 'guide/returns')).toEqual(
      readParsed('guide/returns', revision, body, 'en-US'),
    );
    expect(readWhole(result, 'guide/returns').content).not.toContain('title');
  });

  it('accepts a block closed by `...`', async () => {
    const dots = '---\ntitle: Closed by dots\n...\nBody after dots.\n';
    const result = await loadKnowledgeDirectory(await folder({ 'dots.md': dots }));
    expect(result.files['dots']).toEqual({
      path: 'pages/dots.md',
      title: 'Closed by dots',
      frontmatter: { title: 'Closed by dots' },
    });
    expect(readWhole(result, 'dots')).toEqual(
      readParsed('dots', sha256Revision(dots), 'Body after dots.\n'),
    );
  });

  it('reads CRLF files and files that start with a BOM', async () => {
    const crlfBody =
      'Line one.\r\n<!-- agent-section:s -->\r\nIn s.\r\n<!-- /agent-section:s -->\r\n';
    const crlf = `---\r\ntitle: Windows\r\ntags: [a]\r\n---\r\n${crlfBody}`;
    const bom = '\ufeff---\ntitle: With a BOM\n---\nBody.\n';
    const result = await loadKnowledgeDirectory(await folder({ 'crlf.md': crlf, 'bom.md': bom }));
    expect(result.files['crlf']).toEqual({
      path: 'pages/crlf.md',
      title: 'Windows',
      frontmatter: { title: 'Windows', tags: ['a'] },
    });
    expect(result.files['bom']).toEqual({
      path: 'pages/bom.md',
      title: 'With a BOM',
      frontmatter: { title: 'With a BOM' },
    });
    expect(readWhole(result, 'crlf')).toEqual(readParsed('crlf', sha256Revision(crlf), crlfBody));
    expect(readWhole(result, 'bom')).toEqual(readParsed('bom', sha256Revision(bom), 'Body.\n'));
  });

  it('reads a block whose lines end in a lone CR, as YAML allows', async () => {
    const cr = '---\rid: mac\rtitle: Classic Mac\r---\rBody.\r';
    const result = await loadKnowledgeDirectory(await folder({ 'cr.md': cr }));
    expect(result.files['mac']).toEqual({
      path: 'pages/cr.md',
      title: 'Classic Mac',
      frontmatter: { id: 'mac', title: 'Classic Mac' },
    });
  });

  it.each([
    { name: 'a line of text (a setext heading)', text: '---\nFoo\n---\nBar\n' },
    { name: 'a YAML list', text: '---\n- a\n- b\n---\nBar\n' },
    { name: 'a quoted string', text: '---\n"just text"\n---\nBar\n' },
  ])('leaves a block holding $name as body text, with no issue', async ({ text: whole }) => {
    const result = await loadKnowledgeDirectory(await folder({ 'setext.md': whole }));
    expect(result.files['setext']).toEqual({ path: 'pages/setext.md', frontmatter: {} });
    expect(readWhole(result, 'setext')).toEqual(readParsed('setext', sha256Revision(whole), whole));
  });

  it('accepts an empty block `---` `---` and a block with only a comment', async () => {
    const empty = '---\n---\nBody.\n';
    const comment = '---\n# nothing here\n---\nBody.\n';
    const result = await loadKnowledgeDirectory(
      await folder({ 'empty.md': empty, 'comment.md': comment }),
    );
    expect(result.files['empty']).toEqual({ path: 'pages/empty.md', frontmatter: {} });
    expect(result.files['comment']).toEqual({ path: 'pages/comment.md', frontmatter: {} });
    expect(readWhole(result, 'empty')).toEqual(
      readParsed('empty', sha256Revision(empty), 'Body.\n'),
    );
  });

  it('accepts a file that is only a front matter block', async () => {
    const only = '---\ntitle: Only front matter\n---';
    const result = await loadKnowledgeDirectory(await folder({ 'only.md': only }));
    expect(result.files['only']).toEqual({
      path: 'pages/only.md',
      title: 'Only front matter',
      frontmatter: { title: 'Only front matter' },
    });
    expect(readWhole(result, 'only')).toEqual(readParsed('only', sha256Revision(only), ''));
  });
});

describe('positions are file positions', () => {
  // A 4-line front matter block: body line n is file line n + 4.
  const block = '---\ntitle: Guide\ntags: [a]\n---\n';

  it('reports an unclosed section at its file line, with `file:line:column: ` first in the message', async () => {
    const text = `${block}Intro.\n<!-- agent-section:open -->\nText.\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'docs/guide.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'UNCLOSED_SECTION',
      file: 'docs/guide.md',
      ...placeOf(text, '<!-- agent-section:open'),
    });
    expect(error.issues[0]).toMatchObject({ line: 6, documentId: 'docs/guide', sectionId: 'open' });
    expect(error.message).toContain('docs/guide.md:6:1: ');
  });

  it('reports a malformed anchor at its file line', async () => {
    const text = `${block}One.\nTwo.\n<!-- agent-section:a b -->\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'guide.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'MALFORMED_ANCHOR',
      file: 'guide.md',
      ...placeOf(text, '<!-- agent-section:a b'),
    });
    expect(error.issues[0]?.line).toBe(7);
  });

  it('counts CRLF and BOM files the same way', async () => {
    const crlf = `${block}Intro.\n<!-- agent-section:open -->\nText.\n`.replaceAll('\n', '\r\n');
    const bom = `\ufeff${block}<!-- agent-section:open -->\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'bom.md': bom, 'crlf.md': crlf })),
    );
    expect(error.issues).toHaveLength(2);
    expectPlacedIssue(error.issues[0], {
      code: 'UNCLOSED_SECTION',
      file: 'bom.md',
      line: 5,
      column: 1,
    });
    expectPlacedIssue(error.issues[1], {
      code: 'UNCLOSED_SECTION',
      file: 'crlf.md',
      ...placeOf(crlf, '<!-- agent-section:open'),
    });
  });

  it('gives related places (and the places named in messages) as file positions too', async () => {
    const mismatched = `${block}<!-- agent-section:outer -->\n<!-- agent-section:inner -->\n<!-- /agent-section:outer -->\n`;
    const duplicate = `${block}<!-- agent-section:x -->\n<!-- /agent-section:x -->\n<!-- agent-section:x -->\n<!-- /agent-section:x -->\n`;
    const fence = `${block}\`\`\`md\ncode\n<!-- agent-section:swallowed -->\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(
        await folder({ 'a.md': mismatched, 'b.md': duplicate, 'c.md': fence }),
      ),
    );
    expect(error.issues.map((issue) => issue.code)).toEqual([
      'MISMATCHED_CLOSE',
      'DUPLICATE_SECTION_ID',
      'UNCLOSED_FENCE',
    ]);

    const inner = placeOf(mismatched, '<!-- agent-section:inner');
    expectPlacedIssue(error.issues[0], {
      code: 'MISMATCHED_CLOSE',
      file: 'a.md',
      ...placeOf(mismatched, '<!-- /agent-section:outer'),
    });
    expect(error.issues[0]?.related).toEqual(inner);
    expect(error.issues[0]?.message).toContain(`opened at ${inner.line}:${inner.column}`);

    const first = placeOf(duplicate, '<!-- agent-section:x');
    const second = placeAt(duplicate, duplicate.lastIndexOf('<!-- agent-section:x'));
    expectPlacedIssue(error.issues[1], { code: 'DUPLICATE_SECTION_ID', file: 'b.md', ...second });
    expect(error.issues[1]?.related).toEqual(first);
    expect(error.issues[1]?.message).toContain(`already used at ${first.line}:${first.column}`);

    const swallowed = placeOf(fence, '<!-- agent-section:swallowed');
    expectPlacedIssue(error.issues[2], {
      code: 'UNCLOSED_FENCE',
      file: 'c.md',
      ...placeOf(fence, '```md'),
    });
    expect(error.issues[2]?.related).toEqual(swallowed);
    expect(error.issues[2]?.message).toContain(
      `anchor line at ${swallowed.line}:${swallowed.column}`,
    );
  });
});

describe('INVALID_FRONT_MATTER', () => {
  it('reports a block that is never closed at 1:1, and nothing else for that file', async () => {
    const text = '---\ntitle: Open\n\nBody <!-- agent-section:a -->\n<!-- agent-section:b -->\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'open.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'open.md',
      line: 1,
      column: 1,
    });
    expect(error.issues[0]?.message).toContain('not closed');
  });

  it('warns of invalid YAML made of plain `key: text` lines at the place of the YAML error, and reads the lines', async () => {
    const reserved = '---\nid: x\ntitle: @foo\n---\nBody.\n';
    // After two astral characters, the column counts UTF-16 code units.
    const emoji = '---\ntitle: "😀😀" x\n---\nBody.\n';
    const loaded = await loadKnowledgeDirectory(await folder({ 'a.md': reserved, 'b.md': emoji }));
    expect(loaded.files['x']?.title).toBe('@foo');
    const error = { issues: loaded.warnings };
    expect(error.issues).toHaveLength(2);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'a.md',
      ...placeOf(reserved, '@foo'),
    });
    expectPlacedIssue(error.issues[1], {
      code: 'INVALID_FRONT_MATTER',
      file: 'b.md',
      ...placeOf(emoji, '" x', 2),
    });
    for (const issue of error.issues) expect(issue.message).toContain('not valid YAML');
  });

  it('warns of each key Knowledge Kit reads that has the wrong type, at its value, and loads the page without it', async () => {
    const text =
      '---\nid: 2024\nlocale: [en]\ntitle: 5\ndescription: {a: 1}\ntags: returns, billing\n---\nBody.\n';
    const loaded = await loadKnowledgeDirectory(await folder({ 'types.md': text }));
    const expected = [
      { key: 'id', value: '2024' },
      { key: 'locale', value: '[en]' },
      { key: 'title', value: '5\n' },
      { key: 'description', value: '{a: 1}' },
    ];
    expect(loaded.warnings).toHaveLength(expected.length);
    expected.forEach(({ key, value }, i) => {
      expectPlacedIssue(loaded.warnings[i], {
        code: 'INVALID_FRONT_MATTER',
        file: 'types.md',
        ...placeOf(text, `${key}: ${value}`, key.length + 2),
      });
      expect(loaded.warnings[i]?.message).toContain(`front matter \`${key}\``);
    });
    expect(loaded.catalog.ids).toEqual(['types']);
    expect(loaded.files['types']?.frontmatter).toEqual({ tags: ['returns', 'billing'] });
    expect(loaded.files['types']?.title).toBeUndefined();
  });

  it.each([
    { name: 'tags holding a number', text: '---\ntags: [a, 1]\n---\n', needle: '[a, 1]', shift: 0 },
    { name: 'an empty id', text: '---\nid: ""\n---\n', needle: '""', shift: 0 },
    { name: 'a blank locale', text: '---\nlocale: "  "\n---\n', needle: '"  "', shift: 0 },
    { name: 'a boolean title', text: '---\ntitle: true\n---\n', needle: 'true', shift: 0 },
    {
      name: 'a title with no value',
      text: '---\nid: x\ntitle:\n---\n',
      needle: 'title:',
      shift: 'title:'.length,
    },
  ])('warns of $name at its value', async ({ text, needle, shift }) => {
    const loaded = await loadKnowledgeDirectory(await folder({ 'k.md': text }));
    expect(loaded.documents).toHaveLength(1);
    expect(loaded.warnings).toHaveLength(1);
    expectPlacedIssue(loaded.warnings[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'k.md',
      ...placeOf(text, needle, shift),
    });
  });

  it.each([
    { text: '---\ntags: rune-state\n---\n', tags: ['rune-state'] },
    { text: '---\ntags: a, b ,\n---\n', tags: ['a', 'b'] },
    { text: '---\ntags: [a, b]\n---\n', tags: ['a', 'b'] },
    { text: '+++\ntitle = "T"\ntags = ["a"]\ndate = 2024-01-02\n+++\nBody.\n', tags: ['a'] },
  ])('reads tags from $text', async ({ text, tags }) => {
    const loaded = await loadKnowledgeDirectory(await folder({ 't.md': text }));
    expect(loaded.warnings).toEqual([]);
    expect(loaded.files['t']?.frontmatter?.['tags']).toEqual(tags);
  });

  it('loads .mdx and .markdown pages under their paths, IDs without the extension; a.md beside a.mdx is a duplicate', async () => {
    const loaded = await loadKnowledgeDirectory(
      await folder({ 'x.mdx': 'X.\n', 'y.markdown': 'Y.\n' }),
    );
    expect(loaded.paths).toEqual({ x: 'x.mdx', y: 'y.markdown' });
    expect(loaded.files['x']?.path).toBe('pages/x.mdx');
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': 'A.\n', 'a.mdx': 'A.\n' })),
    );
    expect(error.issues.map((i) => [i.code, i.file])).toEqual([['DUPLICATE_DOCUMENT_ID', 'a.mdx']]);
  });

  it('reports `.inf` and `.nan`, which JSON cannot hold, at their values', async () => {
    const text = '---\nweight: .inf\nlimits:\n  ratio: .nan\n---\nBody.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'inf.md': text })),
    );
    expect(error.issues).toHaveLength(2);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'inf.md',
      ...placeOf(text, '.inf'),
    });
    expect(error.issues[0]?.message).toContain('Infinity');
    // A nested value is reported where its top-level key's value (the nested mapping) starts.
    expectPlacedIssue(error.issues[1], {
      code: 'INVALID_FRONT_MATTER',
      file: 'inf.md',
      ...placeOf(text, 'ratio'),
    });
    expect(error.issues[1]?.message).toContain('NaN');
  });

  it('reports a key that is not a string at the key, showing the key', async () => {
    const text = '---\ntitle: T\n? [a, b]\n: x\n---\nBody.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'key.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'key.md',
      ...placeOf(text, '[a, b]'),
    });
    expect(error.issues[0]?.message).not.toContain('undefined');
  });

  it('takes a line of a quoted value that starts with `? ` for text, not a complex key', async () => {
    const text = '---\ntitle: "Why\n? Because"\n---\nBody.\n';
    const { documents, files } = await loadKnowledgeDirectory(await folder({ 'why.md': text }));
    expect(documents).toHaveLength(1);
    expect(files['why']?.title).toBe('Why ? Because');
  });

  it('names the item of `tags` that is not a string', async () => {
    const text = '---\ntags: [returns, 1]\n---\nBody.\n';
    const error = {
      issues: (await loadKnowledgeDirectory(await folder({ 'tags.md': text }))).warnings,
    };
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'tags.md',
      ...placeOf(text, '[returns'),
    });
    expect(error.issues[0]?.message).toContain('a list whose item 2 is the number 1');
  });

  it('refuses aliases that multiply into more than 10,000 values, at the key that holds them', async () => {
    // Each level repeats the one before ten times (a "billion laughs"): `d` holds 11,111 values.
    const levels = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
    for (const name of ['b', 'c', 'd'])
      levels.push(
        `${name}: &${name} [${Array.from({ length: 10 }, () => `*${String.fromCharCode(name.charCodeAt(0) - 1)}`).join(', ')}]`,
      );
    const text = `---\n${levels.join('\n')}\n---\nBody.\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'bomb.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'bomb.md',
      ...placeOf(text, '&d ['),
    });
    expect(error.issues[0]?.message).toContain('more than 10000 values');
  });

  it('counts the values of all keys together: many keys that each alias a big list are refused', async () => {
    // 9,000 values under `d`, then 200 keys that each repeat them: no key passes 10,000 alone.
    const lines = [`d: &d [${Array.from({ length: 9_000 }, () => '1').join(', ')}]`];
    for (let k = 0; k < 200; k++) lines.push(`k${k}: *d`);
    const text = `---\n${lines.join('\n')}\n---\nBody.\n`;
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'wide.md': text })),
    );
    // One issue, at the key that takes the block past the bound.
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'wide.md',
      ...placeOf(text, '*d'),
    });
    expect(error.issues[0]?.message).toContain(
      'front matter `k0` brings the block to more than 10000 values',
    );
  });

  it('reports a duplicate key at the second occurrence', async () => {
    const text = '---\ntitle: One\ntags: [a]\ntitle: Two\n---\nBody.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'dup.md': text })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_FRONT_MATTER',
      file: 'dup.md',
      ...placeOf(text, 'title: Two'),
    });
  });
});

describe('INVALID_ENCODING', () => {
  /** A file of `before` (UTF-8), then `bad`, then `after`; the bad byte's offset is `before`'s length in bytes. */
  const file = (before: string, bad: readonly number[], after = 'rest\n'): Uint8Array =>
    Buffer.concat([Buffer.from(before), Buffer.from(bad), Buffer.from(after)]);

  it.each([
    { name: 'a truncated 3-byte sequence', before: 'ok line\nab', bad: [0xe2, 0x28, 0xa1] },
    {
      name: 'an overlong encoding after astral characters',
      before: '中文\n😀x',
      bad: [0xc0, 0x80],
    },
    { name: 'an encoded surrogate', before: '---\ntitle: T\n---\n', bad: [0xed, 0xa0, 0x80] },
    { name: 'a lone continuation byte on a CRLF line', before: 'a\r\nb\r\ncd', bad: [0x80] },
    { name: 'a byte after U+FEFF in the middle of the file', before: 'x\n\ufeffb', bad: [0xff] },
  ])('names the file, the byte offset and its line and column: $name', async ({ before, bad }) => {
    const offset = Buffer.byteLength(before);
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'ok.md': 'Fine.\n', 'enc.md': file(before, bad) })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_ENCODING',
      file: 'enc.md',
      ...placeAt(before, before.length),
    });
    expect(error.issues[0]?.message).toContain(`byte ${offset} `);
  });

  it('does not count a leading BOM in the column, as the parser does not', async () => {
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'bom.md': file('\ufeffab', [0xff]) })),
    );
    expectPlacedIssue(error.issues[0], {
      code: 'INVALID_ENCODING',
      file: 'bom.md',
      ...placeAt('ab', 2),
    });
    expect(error.issues[0]?.message).toContain(`byte ${Buffer.byteLength('\ufeffab')} `);
  });
});

describe('DUPLICATE_DOCUMENT_ID', () => {
  it('names the second file at its `id` value, and the first file in the message', async () => {
    const second = '---\ntitle: B\nid: a\n---\nB.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': 'A.\n', 'b.md': second })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'b.md',
      ...placeOf(second, 'id: a', 4),
    });
    expect(error.issues[0]?.documentId).toBe('a');
    expect(error.issues[0]?.message).toContain('`a.md`');
  });

  it('does not say a file has no `id` when its front matter sets one the key scan cannot place', async () => {
    // A flow mapping: the key scan finds no `id:` at column 1, so the issue goes to the block's first line.
    const second = '---\n{id: a, title: B}\n---\nB.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': 'A.\n', 'b.md': second })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'b.md',
      line: 2,
      column: 1,
    });
    expect(error.issues[0]?.message).not.toContain('has no `id`');
  });

  it('names the second file at 1:1 when only the first one sets the `id`', async () => {
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': '---\nid: b\n---\nA.\n', 'b.md': 'B.\n' })),
    );
    expect(error.issues).toHaveLength(1);
    expectPlacedIssue(error.issues[0], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'b.md',
      line: 1,
      column: 1,
    });
    expect(error.issues[0]?.message).toContain('`a.md`');
  });

  it('reports every later file that reuses an ID', async () => {
    const c = '---\nid: a\n---\n';
    const d = '---\n\nid:   a\n---\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': 'A.\n', 'c.md': c, 'd.md': d })),
    );
    expect(error.issues).toHaveLength(2);
    expectPlacedIssue(error.issues[0], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'c.md',
      ...placeOf(c, 'id: a', 4),
    });
    expectPlacedIssue(error.issues[1], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'd.md',
      ...placeOf(d, 'id:   a', 6),
    });
  });
});

describe('every problem of every file, in one error', () => {
  it('collects the problems of all bad files, sorted by file, line and column', async () => {
    const tree = {
      'good.md': '<!-- agent-section:ok -->\nFine.\n<!-- /agent-section:ok -->\n',
      'Zebra.md': 'Intro.\n<!-- agent-section:z -->\n',
      'b-encoding.md': Buffer.concat([Buffer.from('abc\n'), Buffer.from([0xff])]),
      'c-front.md': '---\nweight: .inf\nlimit: .nan\n---\nBody.\n',
      'd/nested.md': '<!-- /agent-section:nothing -->\nText.\n<!-- agent-section:a b -->\n',
      'also-good.md': 'Also fine.\n',
    };
    const error = await catchKnowledgeError(loadKnowledgeDirectory(await folder(tree)));
    expect(
      error.issues.map(({ file, code, line, column }) => ({ file, code, line, column })),
    ).toEqual([
      { file: 'Zebra.md', code: 'UNCLOSED_SECTION', line: 2, column: 1 },
      { file: 'b-encoding.md', code: 'INVALID_ENCODING', line: 2, column: 1 },
      { file: 'c-front.md', code: 'INVALID_FRONT_MATTER', line: 2, column: 9 },
      { file: 'c-front.md', code: 'INVALID_FRONT_MATTER', line: 3, column: 8 },
      { file: 'd/nested.md', code: 'UNEXPECTED_CLOSE', line: 1, column: 1 },
      { file: 'd/nested.md', code: 'MALFORMED_ANCHOR', line: 3, column: 1 },
    ]);
    expect(error.issues).toEqual(sortedIssues(error.issues));
    expect(error.code).toBe('UNCLOSED_SECTION');
    for (const issue of error.issues)
      expect(issue.message.startsWith(`${issue.file}:${issue.line}:${issue.column}: `)).toBe(true);
  });

  it('reports a parse problem in the body of a file whose front matter has a problem', async () => {
    const text = '---\nweight: .inf\n---\n<!-- agent-section:never-closed -->\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'both.md': text })),
    );
    expect(error.issues.map((issue) => issue.code)).toEqual([
      'INVALID_FRONT_MATTER',
      'UNCLOSED_SECTION',
    ]);
    expectPlacedIssue(error.issues[1], {
      code: 'UNCLOSED_SECTION',
      file: 'both.md',
      ...placeOf(text, '<!-- agent-section:never'),
    });
  });

  it('reports a reused document ID even when the file that first has it has a parse problem', async () => {
    const first = 'Intro.\n<!-- agent-section:open -->\n';
    const second = '---\nid: a\n---\nB.\n';
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(await folder({ 'a.md': first, 'b.md': second })),
    );
    expect(error.issues.map((issue) => issue.code)).toEqual([
      'UNCLOSED_SECTION',
      'DUPLICATE_DOCUMENT_ID',
    ]);
    expectPlacedIssue(error.issues[0], {
      code: 'UNCLOSED_SECTION',
      file: 'a.md',
      ...placeOf(first, '<!-- agent-section:open'),
    });
    expectPlacedIssue(error.issues[1], {
      code: 'DUPLICATE_DOCUMENT_ID',
      file: 'b.md',
      ...placeOf(second, 'id: a', 4),
    });
  });
});

describe('READ_FAILED and INVALID_INPUT', () => {
  it('refuses a folder that does not exist, as a path or a URL, naming it, with the system error as cause', async () => {
    const missing = join(await folder(), 'missing');
    for (const dir of [missing, pathToFileURL(missing)]) {
      const error = await catchKnowledgeError(loadKnowledgeDirectory(dir));
      expect(error.issues).toHaveLength(1);
      expect(error.issues[0]).toMatchObject({ code: 'READ_FAILED', file: missing, path: ['dir'] });
      expect(error.issues[0]?.message).toContain(`\`${missing}\` does not exist`);
      expect((error.cause as NodeJS.ErrnoException | undefined)?.code).toBe('ENOENT');
    }
  });

  it('refuses a path that is a file', async () => {
    const dir = await folder({ 'guide.md': 'Guide.\n' });
    const file = join(dir, 'guide.md');
    const error = await catchKnowledgeError(loadKnowledgeDirectory(file));
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ code: 'READ_FAILED', file, path: ['dir'] });
    expect(error.issues[0]?.message).toContain('is a file');
  });

  it.each([
    {
      name: 'an unknown option',
      options: { includes: ['**/*.md'] },
      paths: [['options', 'includes']],
    },
    { name: 'an empty include', options: { include: [] }, paths: [['options', 'include']] },
    {
      name: 'an empty glob in exclude',
      options: { exclude: [''] },
      paths: [['options', 'exclude']],
    },
    {
      name: 'include as a string',
      options: { include: '**/*.md' },
      paths: [['options', 'include']],
    },
    {
      name: 'two problems at once',
      options: { include: [], extra: 1 },
      paths: [
        ['options', 'extra'],
        ['options', 'include'],
      ],
    },
  ])('refuses $name with INVALID_INPUT at its path', async ({ options, paths }) => {
    const dir = await folder({ 'a.md': 'A.\n' });
    const error = await catchKnowledgeError(loadKnowledgeDirectory(dir, options as never));
    expect(error.issues.map((issue) => issue.code)).toEqual(paths.map(() => 'INVALID_INPUT'));
    expect(error.issues.map((issue) => issue.path)).toEqual(paths);
    for (const issue of error.issues)
      expect(issue.message.startsWith('loadKnowledgeDirectory: ')).toBe(true);
  });

  it('refuses an empty folder path', async () => {
    const error = await catchKnowledgeError(loadKnowledgeDirectory(''));
    expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path: ['dir'] });
  });

  it('refuses a URL that is not a file: URL with INVALID_INPUT, not a TypeError', async () => {
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(new URL('https://example.com/knowledge')),
    );
    expect(error.issues).toHaveLength(1);
    expect(error.issues[0]).toMatchObject({ code: 'INVALID_INPUT', path: ['dir'] });
    expect(error.issues[0]?.message).toContain('not a `https:` URL');
  });

  it('passes maxChars to the catalog as its default read limit', async () => {
    const dir = await folder({ 'long.md': `${'x'.repeat(40)}\n` });
    const result = await loadKnowledgeDirectory(dir, { maxChars: 10 });
    expect(() => readWhole(result, 'long')).toThrow(
      expect.objectContaining({ code: 'MAX_CHARS_EXCEEDED' }),
    );
    expect(
      result.catalog.read({ documentId: 'long', selection: { mode: 'document' }, maxChars: 100 })
        .content,
    ).toBe('x'.repeat(40));
  });
});

describe('the result', () => {
  const tree = {
    'guides/returns.md':
      '---\ntitle: Returns\ndescription: How returns work.\ntags: [returns]\nowner: {name: Ann}\n---\nIntro.\n<!-- agent-section:window -->\nThirty days.\n<!-- /agent-section:window -->\n',
    'faq.md': 'Questions.\n',
  };

  it('is deep-frozen', async () => {
    const result = await loadKnowledgeDirectory(await folder(tree));
    const nodes = reachableObjects(result);
    expect(nodes).toContain(result.files['guides/returns']?.frontmatter);
    for (const node of nodes)
      expect(Object.isFrozen(node), JSON.stringify(Object.keys(node))).toBe(true);
    expect(() => {
      (result.files as Record<string, unknown>)['extra'] = {};
    }).toThrow(TypeError);
    expect(() => {
      (result.paths as Record<string, string>)['faq'] = 'other.md';
    }).toThrow(TypeError);
  });

  it('gives files that createCatalogSource takes as options.files: page paths and titles show in get_file and list_tree', async () => {
    const { catalog, files } = await loadKnowledgeDirectory(await folder(tree));
    const source = createCatalogSource(catalog, { id: 'handbook', files });
    const file = await source.getFile({ fileId: 'guides/returns' });
    expect(file).toMatchObject({
      fileId: 'guides/returns',
      path: 'pages/guides/returns.md',
      title: 'Returns',
      description: 'How returns work.',
      frontmatter: {
        title: 'Returns',
        description: 'How returns work.',
        tags: ['returns'],
        owner: { name: 'Ann' },
      },
      revision: sha256Revision(tree['guides/returns.md']),
    });
    expect(file.sections.map((section) => section.id)).toEqual(['window']);
    const listing = await source.listTree({ parentPath: 'pages/guides' });
    expect(listing.items).toEqual([
      expect.objectContaining({
        entryType: 'file',
        fileId: 'guides/returns',
        path: 'pages/guides/returns.md',
        title: 'Returns',
      }),
    ]);
    const top = await source.listTree({ parentPath: 'pages' });
    expect(top.items).toContainEqual(
      expect.objectContaining({ entryType: 'file', fileId: 'faq', path: 'pages/faq.md' }),
    );
  });

  it('never changes its inputs', async () => {
    const dir = await folder({ ...tree, 'drafts/x.md': 'Draft.\n' });
    const url = pathToFileURL(dir);
    const href = url.href;
    const options = { include: ['**/*.md'], exclude: ['drafts/**'], maxChars: 1000 };
    const before = structuredClone(options);
    const result = await loadKnowledgeDirectory(url, options);
    expect(options).toEqual(before);
    expect(Object.keys(options)).toEqual(Object.keys(before));
    expect(url.href).toBe(href);
    expect(result.catalog.ids).toEqual(['faq', 'guides/returns']);
    const frozen = Object.freeze({
      include: Object.freeze(['**/*.md']),
      exclude: Object.freeze(['drafts/**']),
    });
    await expect(loadKnowledgeDirectory(dir, frozen)).resolves.toMatchObject({
      paths: { faq: 'faq.md', 'guides/returns': 'guides/returns.md' },
    });
  });

  it('loads an empty folder as an empty catalog', async () => {
    const result = await loadKnowledgeDirectory(await folder({ 'notes.txt': 'not Markdown\n' }));
    expect(result.catalog.ids).toEqual([]);
    expect(result.documents).toEqual([]);
    expect(result.files).toEqual({});
  });

  it('sees files written after an earlier load (nothing is cached between calls)', async () => {
    const dir = await folder({ 'a.md': 'One.\n' });
    const first = await loadKnowledgeDirectory(dir);
    await writeFile(join(dir, 'a.md'), 'Two.\n');
    const second = await loadKnowledgeDirectory(dir);
    expect(readWhole(first, 'a').content).toBe('One.');
    expect(readWhole(second, 'a').content).toBe('Two.');
    expect(second.catalog.document('a').revision).toBe(sha256Revision('Two.\n'));
  });
});
