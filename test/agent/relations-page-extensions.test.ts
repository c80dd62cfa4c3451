/**
 * Links between pages of every page extension: a docs site with directory URLs (Starlight, MkDocs)
 * writes `/guides/tabs/` for `guides/tabs.mdx`, and an extensionless link may name an `.mdx` or
 * `.markdown` page.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';

let dir: string;
let source: KnowledgeSource;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kk-link-extensions-'));
  await mkdir(join(dir, 'guides'));
  await writeFile(
    join(dir, 'a.md'),
    '# A\n\nSee [tabs](/guides/tabs/), [cards](/guides/cards), [notes](guides/notes.html) and [nothing](/guides/none/).\n',
  );
  await writeFile(join(dir, 'guides', 'tabs.mdx'), '# Tabs\n\nTabs.\n');
  await writeFile(join(dir, 'guides', 'cards.mdx'), '# Cards\n\nCards.\n');
  await writeFile(join(dir, 'guides', 'notes.markdown'), '# Notes\n\nNotes.\n');
  const loaded = await loadKnowledgeDirectory(dir);
  source = createCatalogSource(loaded.catalog, { files: loaded.files, linkRoot: loaded.linkRoot });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('links to .mdx and .markdown pages', () => {
  it('a directory URL, an extensionless path and an .html path each reach their page', async () => {
    const related = await source.readRelated({ fileId: 'a' });
    const linked = related.items
      .filter((item) => item.relationType === 'links_to')
      .map((item) => item.fileId)
      .sort();
    expect(linked).toEqual(['guides/cards', 'guides/notes', 'guides/tabs']);
  });
});
