/**
 * The command line on the docs-site folders of the real corpus (read in place; see its
 * SOURCES.txt): `check` finds no problem in each, and `outline` lists each page's headings, indented
 * by depth, as `get_file` gives them. In process (`runCli`), one folder at a time. (An empty folder's
 * one-line error for every command, and a folder of `.mdx` pages, are in folder-globs.test.ts.)
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createCatalogSource } from '../../src/agent/source/createCatalogSource.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';
import { CORPUS_URL, DOCS_SITE_FOLDERS } from '../helpers/search-fixtures.js';

const corpus = CORPUS_URL;
const present = existsSync(fileURLToPath(corpus));
const FOLDERS = DOCS_SITE_FOLDERS;

describe.skipIf(!present)('check and outline on docs sites', () => {
  it.each(FOLDERS)(
    '%s: check reports 0 problems; outline lists the pages’ headings',
    async (name) => {
      const dir = fileURLToPath(new URL(`${name}/`, corpus));
      const checked = await cli(['check', dir]);
      expect(checked.code, checked.stdout.slice(0, 2000)).toBe(0);
      expect(checked.stdout).toMatch(
        /\n?\d+ files?, \d+ sections?, 0 problems(?:, \d+ warnings?)?\n$/,
      );
      const outline = await cli(['outline', dir]);
      expect(outline.code, outline.stderr).toBe(0);
      expect(outline.stdout).toMatch(/ [1-9]\d* headings\n$/);
      // Each heading of a sample of pages, as get_file lists it, on its own line.
      const loaded = await loadKnowledgeDirectory(dir);
      const source = createCatalogSource(loaded.catalog, { files: loaded.files });
      const ids = loaded.catalog.ids;
      for (const fileId of [ids[0]!, ids[ids.length >> 1]!, ids[ids.length - 1]!]) {
        for (const h of (await source.getFile({ fileId })).headings)
          expect(outline.stdout, `${fileId}#${h.id}`).toContain(
            `${'  '.repeat(h.depth)}${'#'.repeat(h.depth)} ${h.text}  {#${h.id}}  ${h.chars}\n`,
          );
      }
    },
    60_000,
  );
});

if (!present) it.skip('the Markdown corpus is absent', () => {});
