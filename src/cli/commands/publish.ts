/**
 * `knowledge-kit publish <dir> --database <url> --kb <id> [--version LABEL] [--default-version LABEL]`:
 * check, load and publish a folder as a revision of one version of a knowledge base.
 */
import {
  listKnowledgeVersions,
  migrateKnowledgeStore,
  publishKnowledge,
} from '../../postgres/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { knowledgeBaseId, loadFolder } from '../folder.js';
import { PUBLISH_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { STORE_FLAGS, databaseFailure, openDatabase, storeOptions } from '../openDatabase.js';
import { versionFlag } from '../versions.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { FOLDER_GLOB_OPTIONS, folderGlobs } from '../flags.js';

/** Runs `publish`. */
export async function publish(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'publish',
    argv,
    {
      ...STORE_FLAGS,
      title: { type: 'string' },
      revision: { type: 'string' },
      keep: { type: 'string' },
      version: { type: 'string' },
      'default-version': { type: 'string' },
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
  const version = versionFlag('publish', 'version', values['version']);
  const defaultVersion = versionFlag('publish', 'default-version', values['default-version']);
  const loaded = await loadFolder('publish', dir, io, {
    ...folderGlobs(values),
    ...linkRootOption('publish', dir, values['link-root']),
  });
  const knowledgeBase = knowledgeBaseId(dir, values['kb']);
  const store = storeOptions(values);
  const { db, close } = await openDatabase('publish', url);
  try {
    await migrateKnowledgeStore(db, store);
    if (defaultVersion !== undefined) {
      // Said here with the flag's name (the store refuses it too, naming its option).
      const versions = await listKnowledgeVersions(db, { knowledgeBase, ...store });
      const label = version ?? versions.find((v) => v.default)?.version ?? 'current';
      if (defaultVersion !== label && !versions.some((v) => v.version === defaultVersion))
        throw new CliExit(
          `knowledge-kit publish: --default-version ${defaultVersion} names a version knowledge base ${knowledgeBase} does not have (${versions.length === 0 ? 'it has none yet' : `it has ${versions.map((v) => v.version).join(', ')}`}); pass the version being published (${label}) or one it has, or publish ${defaultVersion} first with --version ${defaultVersion}. Nothing was published.`,
        );
    }
    const published = await publishKnowledge(db, {
      knowledgeBase,
      catalog: loaded.catalog,
      files: loaded.files,
      linkRoot: loaded.linkRoot,
      ...(typeof values['revision'] === 'string' ? { revision: values['revision'] } : {}),
      ...(typeof values['title'] === 'string' ? { title: values['title'] } : {}),
      ...(keep === undefined ? {} : { keep }),
      ...store,
      ...(version === undefined ? {} : { version }),
      ...(defaultVersion === undefined ? {} : { defaultVersion }),
    });
    const revision = JSON.stringify(published.activeContentRevision);
    // The version's active revision before: publishing the content of an older kept revision makes
    // it active again, which is a change to say, not "unchanged".
    const before = published.previousContentRevision ?? undefined;
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
    // A knowledge base of one version `current` prints as before versions existed.
    const named =
      version !== undefined || published.version !== 'current'
        ? ` version ${published.version}`
        : '';
    const defaulted =
      defaultVersion !== undefined ? `; the default version is ${published.defaultVersion}` : '';
    io.stdout.write(
      `${outcome} ${knowledgeBase}${named} at revision ${revision}${was} (${published.pages} ${published.pages === 1 ? 'page' : 'pages'})${published.removed.length > 0 ? `; removed ${published.removed.map((r) => JSON.stringify(r)).join(', ')}` : ''}${defaulted}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    throw databaseFailure('publish', error, EXIT.problems, 'nothing was published');
  } finally {
    await close();
  }
}
