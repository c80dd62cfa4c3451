/**
 * `knowledge-kit versions --database <url> --kb <id> [--default-version LABEL] [--json]`: the versions
 * of a knowledge base in a store, each with its active revision and when it was published; with
 * `--default-version`, makes that version the default first.
 */
import { isKnowledgeError } from '../../errors/isKnowledgeError.js';
import {
  listKnowledgeVersions,
  setDefaultKnowledgeVersion,
  type StoredKnowledgeVersion,
} from '../../postgres/index.js';
import { parseCommandArgs } from '../args.js';
import { VERSIONS_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { STORE_FLAGS, openDatabase, storeOptions, storeUnreadable } from '../openDatabase.js';
import { versionFlag } from '../versions.js';

/** Runs `versions`. */
export async function versions(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'versions',
    argv,
    {
      ...STORE_FLAGS,
      'default-version': { type: 'string' },
      json: { type: 'boolean' },
    },
    0,
  );
  if (values['help'] === true) {
    io.stdout.write(`${VERSIONS_HELP}\n`);
    return EXIT.ok;
  }
  const url = values['database'];
  const knowledgeBase = values['kb'];
  if (typeof url !== 'string' || typeof knowledgeBase !== 'string')
    throw new CliExit(
      'knowledge-kit versions: needs --database and --kb, such as `knowledge-kit versions --database postgres://localhost/knowledge --kb handbook`. Run `knowledge-kit versions --help`.',
    );
  const makeDefault = versionFlag('versions', 'default-version', values['default-version']);
  const store = storeOptions(values);
  const { db, close } = await openDatabase('versions', url);
  let listed: readonly StoredKnowledgeVersion[];
  try {
    listed = await listKnowledgeVersions(db, { knowledgeBase, ...store });
    if (listed.length === 0)
      throw new CliExit(
        `knowledge-kit versions: the store has no knowledge base \`${knowledgeBase}\`; publish it first with \`knowledge-kit publish <folder> --database … --kb ${knowledgeBase}\`.`,
      );
    if (makeDefault !== undefined) {
      if (!listed.some((v) => v.version === makeDefault))
        throw new CliExit(
          `knowledge-kit versions: --default-version ${makeDefault} is not a version of ${knowledgeBase} (it has ${listed.map((v) => v.version).join(', ')}); pass one of them, or publish it first with \`knowledge-kit publish <folder> --database … --kb ${knowledgeBase} --version ${makeDefault}\`.`,
        );
      listed = await setDefaultKnowledgeVersion(db, {
        knowledgeBase,
        version: makeDefault,
        ...store,
      });
    }
  } catch (error) {
    if (error instanceof CliExit) throw error;
    if (isKnowledgeError(error))
      throw new CliExit(`knowledge-kit versions: ${error.message}`, EXIT.usage);
    throw storeUnreadable('versions', error);
  } finally {
    await close();
  }
  if (values['json'] === true) {
    io.stdout.write(`${JSON.stringify(listed, null, 2)}\n`);
    return EXIT.ok;
  }
  const width = Math.max(...listed.map((v) => v.version.length));
  for (const v of listed)
    io.stdout.write(
      `${v.version.padEnd(width)}  ${v.default ? 'default' : '       '}  revision ${JSON.stringify(v.activeContentRevision)}, published ${v.publishedAt}\n`,
    );
  return EXIT.ok;
}
