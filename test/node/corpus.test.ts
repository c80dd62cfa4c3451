import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isKnowledgeError } from '../../src/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';

/** Real documentation folders (see SOURCES.txt there), read in place: none has anchors, so none may have a problem. */
const corpus = new URL('../../../shared/corpus/markdown/', import.meta.url);
const corpusPath = fileURLToPath(corpus);
const present = existsSync(corpusPath);
const folders = present
  ? readdirSync(corpus, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort()
  : [];

/** Every `.md`, `.mdx` and `.markdown` file under `root`, `/`-separated, outside node_modules and dot folders: the loader's set, found independently. */
function markdownFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(?:md|mdx|markdown)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter(
      (path) =>
        !path.split('/').some((segment) => segment === 'node_modules' || segment.startsWith('.')),
    );
}

describe.skipIf(!present)(`the Markdown corpus at ${corpusPath}`, () => {
  it('has folders to load', () => {
    expect(folders.length).toBeGreaterThan(0);
  });

  it.each(folders)('loads %s with zero problems and every Markdown file in it', async (name) => {
    const root = new URL(`${name}/`, corpus);
    let loaded;
    try {
      loaded = await loadKnowledgeDirectory(root);
    } catch (error) {
      const shown = isKnowledgeError(error)
        ? `${error.issues.length} problems, first: ${error.issues
            .slice(0, 5)
            .map((issue) => issue.message)
            .join(' | ')}`
        : String(error);
      throw new Error(`${name}: ${shown}`, { cause: error });
    }
    const expected = markdownFiles(fileURLToPath(root)).sort();
    expect(expected.length).toBeGreaterThan(0);
    expect(Object.values(loaded.paths)).toEqual(expected);
    expect(loaded.documents).toHaveLength(expected.length);
  });
});

if (!present)
  it.skip(`the Markdown corpus is absent: nothing at ${corpusPath} (../shared/corpus/markdown beside the repository)`, () => {});
