/**
 * A search item's heading on pages written in a docs-site dialect: the searched text has the
 * dialect's markup removed line by line, and the heading that holds the best match is still found.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import type { KnowledgeSource } from '../../src/agent/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';

const MDX = `import { Tabs, TabItem } from '@astrojs/starlight/components';
export const title = 'Setup';

# Setup

Some words to start with.

## Install the tool {/*install*/}

<Tabs>
  <TabItem label="npm">
Run the zebracorn installer from a terminal.
  </TabItem>
</Tabs>

## Afterwards

Nothing more to do.
`;

const VITEPRESS = `# Config

Intro.

## Site options {#site-options}

::: tip Good to know
The quokkafield option lives here.
:::

## Theme

Colours.
`;

let dir: string;
let source: KnowledgeSource;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kk-search-headings-'));
  await writeFile(join(dir, 'setup.mdx'), MDX);
  await writeFile(join(dir, 'config.md'), VITEPRESS);
  const loaded = await loadKnowledgeDirectory(dir);
  expect(loaded.warnings).toEqual([]);
  expect(loaded.documents.map((d) => d.id).sort()).toEqual(['config', 'setup']);
  source = createCatalogSource(loaded.catalog, { files: loaded.files });
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('search items name the heading of their match on dialect pages', () => {
  it('an MDX page: the match inside JSX children is under its heading, the excerpt has no tag', async () => {
    const result = await source.searchFiles({ query: 'zebracorn' });
    const item = result.items.find((i) => i.fileId === 'setup');
    expect(item?.heading).toEqual({ id: 'install', text: 'Install the tool' });
    expect(item?.sourceExcerpt).toContain('zebracorn');
    expect(item?.sourceExcerpt).not.toMatch(/<Tab|import /);
  });

  it('a VitePress page: the match inside a container is under its heading', async () => {
    const result = await source.searchFiles({ query: 'quokkafield' });
    const item = result.items.find((i) => i.fileId === 'config');
    expect(item?.heading).toEqual({ id: 'site-options', text: 'Site options' });
    expect(item?.sourceExcerpt).toContain('quokkafield');
    expect(item?.sourceExcerpt).not.toContain(':::');
  });
});
