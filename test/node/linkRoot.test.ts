// Issue 20 item 3: the folder loader's `linkRoot`, the folder a site-root link's `/` stands for
// (default the folder itself), given to the catalog source so that `/learn/…` links relate pages.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { linkRootOf } from '../../src/node/linkRootOf.js';
import { catchKnowledgeError, expectKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

// A docs site's content folder, as React's: pages link to each other from the site's root.
const site = {
  'learn/index.md': '# Learn\n\nStart with [state](/learn/state) or [lists](/learn/lists.html).\n',
  'learn/state.md': '# State\n\nSee [the API](/reference/use-state#usage) and [learn](/learn/).\n',
  'learn/lists.md': '# Lists\n\nBack to [state](./state).\n',
  'reference/use-state.md': '# useState\n\nUsed in [state](/learn/state).\n',
};

const linksTo = async (source: ReturnType<typeof createCatalogSource>, fileId: string) =>
  (await source.readRelated({ fileId })).items
    .filter((i) => i.relationType === 'links_to')
    .map((i) => i.fileId);

describe('loadKnowledgeDirectory: linkRoot', () => {
  it('defaults to the folder itself: `/learn/state` is the page of learn/state.md', async () => {
    const dir = await folder(site);
    const { catalog, files, linkRoot } = await loadKnowledgeDirectory(dir);
    expect(linkRoot).toBe('pages');
    const source = createCatalogSource(catalog, { files, linkRoot });
    expect(await linksTo(source, 'learn/index')).toEqual(['learn/lists', 'learn/state']);
    expect(await linksTo(source, 'learn/state')).toEqual(['learn/index', 'reference/use-state']);
    expect(await linksTo(source, 'reference/use-state')).toEqual(['learn/state']);
  });

  it('a folder that holds the loaded one: only `learn/` loaded, its links from the site root still resolve', async () => {
    const root = await folder(site);
    const { catalog, files, linkRoot } = await loadKnowledgeDirectory(join(root, 'learn'), {
      linkRoot: root,
    });
    expect(linkRoot).toEqual({ dir: 'pages', base: '/learn/' });
    const source = createCatalogSource(catalog, { files, linkRoot });
    expect(await linksTo(source, 'index')).toEqual(['lists', 'state']);
    // `/reference/…` is outside the loaded folder: no relation, and no guess.
    expect(await linksTo(source, 'state')).toEqual(['index']);
  });

  it('a folder inside the loaded one (a repository whose site is under src/), also as a file: URL', async () => {
    const dir = await folder(
      Object.fromEntries(Object.entries(site).map(([k, v]) => [`src/${k}`, v])),
    );
    for (const linkRoot of [join(dir, 'src'), pathToFileURL(join(dir, 'src'))]) {
      const loaded = await loadKnowledgeDirectory(dir, { linkRoot });
      expect(loaded.linkRoot).toBe('pages/src');
      const source = createCatalogSource(loaded.catalog, {
        files: loaded.files,
        linkRoot: loaded.linkRoot,
      });
      expect(await linksTo(source, 'src/learn/index')).toEqual([
        'src/learn/lists',
        'src/learn/state',
      ]);
    }
  });

  it('refuses a folder that neither is, holds nor is held by the loaded one, naming the option', async () => {
    const dir = await folder({ 'a/x.md': '# X\n', 'b/y.md': '# Y\n' });
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(join(dir, 'a'), { linkRoot: join(dir, 'b') }),
    );
    expect(error.issues).toMatchObject([{ code: 'INVALID_INPUT', path: ['options', 'linkRoot'] }]);
    expect(error.message).toContain('is neither the folder');
    for (const linkRoot of ['', 5, new URL('https://example.com/')])
      expectKnowledgeError(() => linkRootOf(dir, linkRoot), {
        code: 'INVALID_INPUT',
        path: ['options', 'linkRoot'],
      });
  });

  it('is one of the options an unknown key is told about', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const error = await catchKnowledgeError(
      loadKnowledgeDirectory(dir, { linkroot: dir } as never),
    );
    expect(error.message).toContain('`linkRoot`');
  });
});
