// Issue 20 item 3 on the command line: `--link-root` on the commands that serve a folder's links,
// checked before anything is read, and the start-up line that counts site-root links naming no page.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/index.js';
import { reportLinks } from '../../src/cli/linkRoot.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const folder = useTempFolders();
const site = {
  'learn/index.md': '# Learn\n\nStart with [state](/learn/state).\n',
  'learn/state.md': '# State\n\nThe [blog](/blog/2024/post) and [home](/learn/).\n',
};

describe('--link-root', () => {
  it('search --mode graph follows site-root links through it', async () => {
    await requireBuiltCli();
    const root = await folder(site);
    const dir = join(root, 'learn');
    const args = ['search', dir, 'Start with state', '--mode', 'graph', '--json'];
    const without = JSON.parse((await runCli(args)).stdout);
    const withRoot = JSON.parse((await runCli([...args, '--link-root', root])).stdout);
    // The graph stage links the two pages only through `/learn/state` and `/learn/`.
    const byGraph = (out: { items: { fileId: string; evidenceTypes: string[] }[] }) =>
      out.items
        .filter((i) => i.evidenceTypes.includes('graph'))
        .map((i) => i.fileId)
        .sort();
    expect(byGraph(withRoot)).toEqual(['index', 'state']);
    expect(byGraph(without)).toEqual([]);
  });

  it('a folder unrelated to the served one is a usage error (exit 2) naming the flag', async () => {
    await requireBuiltCli();
    const root = await folder({ 'a/x.md': '# X\n', 'b/y.md': '# Y\n' });
    const result = await runCli(['search', join(root, 'a'), 'x', '--link-root', join(root, 'b')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^knowledge-kit search: --link-root `.*b` is neither the folder/);
  });

  it('serve and mcp say at start how many site-root links name no page, with one of them', async () => {
    const root = await folder(site);
    const loaded = await loadKnowledgeDirectory(join(root, 'learn'));
    const lines: string[] = [];
    const io = { stderr: { write: (s: string) => lines.push(s) } } as never;
    reportLinks(
      'mcp',
      createCatalogSource(loaded.catalog, { files: loaded.files, linkRoot: loaded.linkRoot }),
      io,
    );
    expect(lines).toEqual([
      "knowledge-kit mcp: 0 links between pages; 3 site-root links name no page (such as `/learn/state` in `pages/index.md`), and are left out of read_related and expand_graph. --link-root names the folder `/` stands for (the docs site's root).\n",
    ]);
    // With the site's root, only `/blog/…` is left: it names no page of this folder.
    const served = await loadKnowledgeDirectory(join(root, 'learn'), { linkRoot: root });
    lines.length = 0;
    reportLinks(
      'serve',
      createCatalogSource(served.catalog, { files: served.files, linkRoot: served.linkRoot }),
      io,
    );
    expect(lines).toEqual([
      "knowledge-kit serve: 2 links between pages; 1 site-root link names no page (such as `/blog/2024/post` in `pages/state.md`), and is left out of read_related and expand_graph. --link-root names the folder `/` stands for (the docs site's root).\n",
    ]);
  });
});
