// A folder of Markdown as knowledge, with `knowledge-kit/node` and the `knowledge-kit` command.
// `examples/handbook/` holds three pages, two with YAML front matter (id, title, locale, tags), one in a
// subfolder. This loads it, serves it to the agent tools, shows a broken copy's problems with their file
// places, watches a copy through a bad edit and a fix, and runs `knowledge-kit check` on both.
// Run it with `npm run example:node`.
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isKnowledgeError } from 'knowledge-kit';
import { createCatalogSource } from 'knowledge-kit/agent';
import { loadKnowledgeDirectory, watchKnowledgeDirectory } from 'knowledge-kit/node';

const handbook = fileURLToPath(new URL('./handbook/', import.meta.url));
const heading = (title) => console.log(`\n=== ${title} ===`);

// 1. One call does what examples/knowledge.mjs does by hand: read every .md file in path order, take
//    the front matter, compute `sha256:` revisions, parse, compile. `files` says where each page lives.
heading('loadKnowledgeDirectory');
const { catalog, files, paths } = await loadKnowledgeDirectory(handbook);
for (const id of catalog.ids) {
  const document = catalog.document(id);
  console.log(
    `${id.padEnd(9)} ${paths[id].padEnd(27)} ${(document.locale ?? '-').padEnd(6)} ${document.revision.slice(0, 19)}…  ${files[id].title ?? '(title from the text)'}  tags: ${JSON.stringify(files[id].frontmatter.tags ?? [])}`,
  );
}

// 2. The page records go to the agent layer as they are.
heading('The agent tools on the folder');
const source = createCatalogSource(catalog, { id: 'handbook', files });
const found = await source.searchFiles({ query: '签收时包装破损怎么办？' });
console.log(
  `search: ${found.items.map((item) => `${item.path} [${item.sectionIds.join(', ')}]`).join('; ')}`,
);
const page = await source.readFile({ fileId: found.items[0].fileId });
console.log(`read_file: ${page.file.path}, snapshot ${page.file.snapshotId}`);

// 3. Every problem of every file comes back at once, with the file's own line and column (the front
//    matter counts: the break below is on line 10 of returns.md, line 4 of its body).
const scratch = await mkdtemp(join(tmpdir(), 'knowledge-kit-example-'));
try {
  const broken = join(scratch, 'broken');
  await cp(handbook, broken, { recursive: true });
  const returns = join(broken, 'returns.md');
  await writeFile(
    returns,
    (await readFile(returns, 'utf8')).replace(
      '<!-- agent-section:window -->',
      '<!-- agent-section: window -->',
    ),
  );
  await writeFile(join(broken, 'faq.md'), '---\ntitle: FAQ\nweight: .inf\n---\n# FAQ\n');

  heading('Problems, with file places');
  try {
    await loadKnowledgeDirectory(broken);
  } catch (error) {
    if (!isKnowledgeError(error)) throw error;
    for (const issue of error.issues)
      console.log(`${issue.file}:${issue.line}:${issue.column}  ${issue.code}`);
    console.log(error.issues[1].message);
  }

  // 4. Watching: a bad edit is reported and the last good catalog stays; a fix is swapped in.
  heading('watchKnowledgeDirectory');
  const live = join(scratch, 'live');
  await cp(handbook, live, { recursive: true });
  const changes = [];
  let changed;
  const watcher = await watchKnowledgeDirectory(live, { debounceMs: 50 }, (change) => {
    changes.push(change);
    changed?.();
  });
  const next = () => new Promise((resolve) => (changed = resolve));
  const faq = join(live, 'faq.md');
  const good = await readFile(faq, 'utf8');

  let reported = next();
  await writeFile(faq, `${good}\n<!-- agent-section:orders -->\nNo close anchor.\n`);
  await reported;
  const failed = changes.at(-1);
  console.log(
    `bad edit: ok=${failed.ok}, ${failed.error?.issues[0].code} at ${failed.error?.issues[0].file}:${failed.error?.issues[0].line}; still serving ${watcher.current.catalog.sectionIds('faq').length} faq section(s)`,
  );

  reported = next();
  await writeFile(
    faq,
    `${good}\n<!-- agent-section:orders -->\nOrders can be changed until they ship.\n<!-- /agent-section:orders -->\n`,
  );
  await reported;
  console.log(
    `fix: ok=${changes.at(-1).ok}; now ${watcher.current.catalog.sectionIds('faq').length} faq sections: ${watcher.current.catalog.sectionIds('faq').join(', ')}`,
  );
  await watcher.close();

  // 5. The same checks for authors and CI: `npx knowledge-kit check ./knowledge` (here the built bin).
  heading('knowledge-kit check');
  const bin = fileURLToPath(new URL('../dist/cli.js', import.meta.url));
  for (const args of [
    ['check', handbook],
    ['check', broken, '--format', 'github'],
  ]) {
    const result = await promisify(execFile)(process.execPath, [bin, ...args], {
      cwd: scratch,
    }).catch((error) => error);
    console.log(
      `$ knowledge-kit ${args.map((arg) => arg.replace(scratch, '<tmp>').replace(handbook, 'examples/handbook/')).join(' ')}   (exit ${result.code ?? 0})`,
    );
    process.stdout.write(result.stdout.replaceAll(scratch, '<tmp>'));
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
