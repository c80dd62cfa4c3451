/** `knowledge-kit export <dir> --out <bundle>`: check and load a folder, then write it as a static bundle. */
import { createCatalogSource } from '../../agent/index.js';
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import { exportKnowledgeBundle } from '../../node/index.js';
import { parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { EXPORT_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';

/** Runs `export`. */
export async function exportCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'export',
    argv,
    {
      out: { type: 'string' },
      id: { type: 'string' },
      title: { type: 'string' },
      'base-url': { type: 'string' },
      ...LINK_ROOT_FLAG,
      ...FOLDER_GLOB_OPTIONS,
    },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${EXPORT_HELP}\n`);
    return EXIT.ok;
  }
  const [dir] = positionals;
  const out = values['out'];
  if (dir === undefined || typeof out !== 'string')
    throw new CliExit(
      'knowledge-kit export: needs a folder and --out, such as `knowledge-kit export ./knowledge --out ./public/kb`. Run `knowledge-kit export --help`.',
    );
  const baseUrl = values['base-url'];
  if (typeof baseUrl === 'string' && !URL.canParse(baseUrl))
    throw new CliExit(
      `knowledge-kit export: --base-url ${JSON.stringify(baseUrl)} is not an absolute URL; pass one such as https://example.com/kb/.`,
    );
  const loaded = await loadFolder('export', dir, io, {
    ...folderGlobs(values),
    ...linkRootOption('export', dir, values['link-root']),
  });
  const id = knowledgeBaseId(dir, values['id']);
  const source = createCatalogSource(loaded.catalog, {
    id,
    files: loaded.files,
    linkRoot: loaded.linkRoot,
    publishedAt: loaded.publishedAt,
  });
  try {
    const result = await exportKnowledgeBundle(source, {
      out,
      id,
      ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
      ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    });
    const { counts, activeContentRevision } = result.manifest;
    io.stdout.write(
      `exported ${id} at revision ${JSON.stringify(activeContentRevision)} to ${result.out}: ${counts.pages} ${counts.pages === 1 ? 'page' : 'pages'}, ${result.written.length} ${result.written.length === 1 ? 'file' : 'files'} written, ${result.unchanged} unchanged, ${result.removed.length} removed\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (isKnowledgeError(error)) throw new CliExit(`knowledge-kit export: ${error.message}`);
    throw new CliExit(
      `knowledge-kit export: writing the bundle failed (${error instanceof Error ? error.message : String(error)}).`,
    );
  }
}
