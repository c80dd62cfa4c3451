// Versions side by side: one knowledge base with two labelled versions of the handbook
// (`examples/handbook/`), each answering from its own pages, never from the other's. The newer version
// is a temporary copy with changes planted here (a longer return window, a new page, a removed page).
// An agent asks each version the same question, is refused a version that is not there (with the list
// of those that are), and asks what changed between the two (`diffVersions`). Then the command line
// does the same from the two folders (`--version LABEL=FOLDER`).
// Run it with `npm run example:versions`.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createCatalogSource,
  createStaticSource,
  createVersionedSource,
  diffVersions,
  isKnowledgeToolError,
} from 'knowledge-kit/agent';
import {
  exportKnowledgeVersions,
  loadKnowledgeDirectory,
  readBundleDirectory,
} from 'knowledge-kit/node';

const handbook = fileURLToPath(new URL('./handbook/', import.meta.url));
const heading = (title) => console.log(`\n=== ${title} ===`);
const question = 'How long do I have to return unworn items?';

const scratch = await mkdtemp(join(tmpdir(), 'knowledge-kit-versions-'));
try {
  // 1. The newer version: a copy of the handbook with three planted changes.
  const newer = join(scratch, 'handbook-2026-10');
  await cp(handbook, newer, { recursive: true });
  const returns = join(newer, 'returns.md');
  await writeFile(
    returns,
    (await readFile(returns, 'utf8')).replace('within 30 days', 'within 60 days'),
  );
  await writeFile(
    join(newer, 'exchanges.md'),
    '# Exchanges\n\n<!-- agent-section:sizes -->\n## Another size\n\nAn unworn item can be exchanged for another size within 60 days, free of charge.\n<!-- /agent-section:sizes -->\n',
  );
  await rm(join(newer, 'faq.md'));

  // 2. One source per version (any source: a folder, PostgreSQL, a static bundle, a remote one),
  //    composed into one knowledge base. A call that names no version reads the default.
  const sourceOf = async (dir) => {
    const { catalog, files, linkRoot } = await loadKnowledgeDirectory(dir);
    return createCatalogSource(catalog, { id: 'handbook', files, linkRoot });
  };
  const source = createVersionedSource({
    versions: { '2026-10': await sourceOf(newer), '2026-04': await sourceOf(handbook) },
    default: '2026-10',
  });

  // 3. An agent's first call lists the versions.
  heading('list_tree: the versions');
  const root = await source.listTree({});
  for (const v of root.versions)
    console.log(
      `${v.version}${v.default ? ' (default)' : ''}  revision ${v.activeContentRevision}`,
    );

  // 4. The same question of each version: search, then read the section search pointed at.
  for (const version of source.versionLabels) {
    heading(`search_files + read_file, version ${version}: ${question}`);
    const found = await source.searchFiles({ query: question, limit: 3, version });
    const top = found.items[0];
    console.log(`candidates: ${found.items.map((item) => item.path).join(', ')}`);
    const page = await source.readFile({
      fileId: top.fileId,
      ...(top.sectionIds.length > 0 ? { sectionIds: top.sectionIds.slice(0, 1) } : {}),
      version,
    });
    console.log(`evidence: ${page.file.path}, snapshot ${page.file.snapshotId}`);
    console.log(page.content.trim());
  }

  // 5. A version that is not there is refused, with the list; it is never answered from another.
  heading('A version that is not there');
  try {
    await source.searchFiles({ query: question, version: '2025-10' });
    throw new Error('version 2025-10 should have been refused');
  } catch (error) {
    if (!isKnowledgeToolError(error)) throw error;
    console.log(`${error.code}: ${error.message}`);
  }

  // 6. What changed: pages added and removed, and the changed page's sections and headings.
  heading('diffVersions(source, "2026-04", "2026-10")');
  const diff = await diffVersions(source, '2026-04', '2026-10');
  console.log(`added: ${diff.added.join(', ')}`);
  console.log(`removed: ${diff.removed.join(', ')}`);
  for (const page of diff.changed)
    console.log(
      `changed: ${page.path}  sections ~ ${page.sections.changed.join(', ')}  headings ~ ${page.headings.changed.join(', ')}`,
    );

  // 7. The same versions as static files (one bundle per version and versions.json), read back:
  //    `knowledge-kit export --version LABEL=FOLDER … --out DIR` writes the same.
  heading('exportKnowledgeVersions, read back with createStaticSource');
  const exported = await exportKnowledgeVersions(source, { out: join(scratch, 'kb') });
  for (const { version, bundle } of exported.versions)
    console.log(`versions/${version}/: ${bundle.manifest.counts.pages} pages`);
  const fromFiles = createStaticSource({ read: readBundleDirectory(exported.out) });
  const answer = await fromFiles.searchFiles({ query: question, limit: 1, version: '2026-04' });
  console.log(`version 2026-04 from the files: ${answer.items[0].path} (${answer.version})`);

  // 8. The command line reads the same two folders as versions (`serve` and `mcp` take the same flags).
  heading('knowledge-kit search --version LABEL=FOLDER');
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  for (const args of [
    [
      'search',
      '--version',
      `2026-10=${newer}`,
      '--version',
      `2026-04=${handbook}`,
      '--version',
      '2026-04',
      question,
      '--limit',
      '1',
    ],
    ['search', '--version', `2026-10=${newer}`, '--version', '2025-10', question],
  ]) {
    const result = await promisify(execFile)(process.execPath, [bin, ...args]).catch((e) => e);
    const shown = args.map((arg) =>
      arg.replace(newer, '<tmp>/handbook-2026-10').replace(handbook, 'examples/handbook/'),
    );
    console.log(
      `$ knowledge-kit ${shown.map((a) => (a.includes(' ') ? JSON.stringify(a) : a)).join(' ')}   (exit ${result.code ?? 0})`,
    );
    process.stdout.write(result.stdout);
    process.stdout.write(result.stderr.replaceAll(newer, '<tmp>/handbook-2026-10'));
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
