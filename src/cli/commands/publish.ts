/** `knowledge-kit publish <dir> --database <url> --kb <id>`: check, load and publish a folder as a revision. */
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import {
  listKnowledgeBases,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../postgres/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { PUBLISH_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { openDatabase } from '../openDatabase.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';

/** Runs `publish`. */
export async function publish(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'publish',
    argv,
    {
      database: { type: 'string' },
      kb: { type: 'string' },
      title: { type: 'string' },
      revision: { type: 'string' },
      keep: { type: 'string' },
      schema: { type: 'string' },
      ...LINK_ROOT_FLAG,
      ...FOLDER_GLOB_OPTIONS,
    },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${PUBLISH_HELP}\n`);
    return EXIT.ok;
  }
  const [dir] = positionals;
  const url = values['database'];
  if (dir === undefined || typeof url !== 'string')
    throw new CliExit(
      'knowledge-kit publish: needs a folder and --database, such as `knowledge-kit publish ./knowledge --database postgres://localhost/knowledge --kb handbook`. Run `knowledge-kit publish --help`.',
    );
  const keep = integerOption('publish', 'keep', values['keep'], 1, 1000);
  const loaded = await loadFolder('publish', dir, io, {
    ...folderGlobs(values),
    ...linkRootOption('publish', dir, values['link-root']),
  });
  const knowledgeBase = knowledgeBaseId(dir, values['kb']);
  const { db, close } = await openDatabase('publish', url);
  try {
    const schema = values['schema'] as string | undefined;
    await migrateKnowledgeStore(db, schema === undefined ? {} : { schema });
    // The active revision before: publishing the content of an older kept revision makes it active
    // again, which is a change to say, not "unchanged".
    const before = (await listKnowledgeBases(db, schema === undefined ? {} : { schema })).find(
      (stored) => stored.id === knowledgeBase,
    )?.activeContentRevision;
    const published = await publishKnowledge(db, {
      knowledgeBase,
      catalog: loaded.catalog,
      files: loaded.files,
      linkRoot: loaded.linkRoot,
      ...(typeof values['revision'] === 'string' ? { revision: values['revision'] } : {}),
      ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
      ...(keep === undefined ? {} : { keep }),
      ...(schema === undefined ? {} : { schema }),
    });
    const revision = JSON.stringify(published.activeContentRevision);
    const outcome = published.created
      ? 'published'
      : before === published.activeContentRevision
        ? 'unchanged'
        : 'reactivated';
    const was =
      outcome === 'reactivated'
        ? before === undefined
          ? ', published earlier with the same content'
          : `, published earlier with the same content (the active revision was ${JSON.stringify(before)})`
        : '';
    io.stdout.write(
      `${outcome} ${knowledgeBase} at revision ${revision}${was} (${published.pages} ${published.pages === 1 ? 'page' : 'pages'})${published.removed.length > 0 ? `; removed ${published.removed.map((r) => JSON.stringify(r)).join(', ')}` : ''}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    if (isKnowledgeError(error))
      throw new CliExit(`knowledge-kit publish: ${error.message}`, EXIT.problems);
    throw new CliExit(
      `knowledge-kit publish: the database failed (${error instanceof Error ? error.message : String(error)}); nothing was published.`,
    );
  } finally {
    await close();
  }
}
