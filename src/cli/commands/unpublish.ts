/**
 * `knowledge-kit unpublish --database <url> --kb <id> --version LABEL [--default-version LABEL]`:
 * remove one version of a knowledge base from a store (never its last one; its default only with
 * the next default named).
 */
import {
  listKnowledgeVersions,
  migrateKnowledgeStore,
  unpublishKnowledgeVersion,
} from '../../postgres/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { UNPUBLISH_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { STORE_FLAGS, databaseFailure, openDatabase, storeOptions } from '../openDatabase.js';
import { versionFlag } from '../versions.js';

/** Runs `unpublish`. */
export async function unpublish(argv: readonly string[], io: CliIo): Promise<number> {
  const { values } = parseCommandArgs(
    'unpublish',
    argv,
    {
      ...STORE_FLAGS,
      version: { type: 'string' },
      'default-version': { type: 'string' },
      keep: { type: 'string' },
    },
    0,
  );
  if (values['help'] === true) {
    io.stdout.write(`${UNPUBLISH_HELP}\n`);
    return EXIT.ok;
  }
  const url = values['database'];
  const knowledgeBase = values['kb'];
  const version = versionFlag('unpublish', 'version', values['version']);
  if (typeof url !== 'string' || typeof knowledgeBase !== 'string' || version === undefined)
    throw new CliExit(
      'knowledge-kit unpublish: needs --database, --kb and --version, such as `knowledge-kit unpublish --database postgres://localhost/knowledge --kb handbook --version 1.x`. Run `knowledge-kit unpublish --help`.',
    );
  const nextDefault = versionFlag('unpublish', 'default-version', values['default-version']);
  const keep = integerOption('unpublish', 'keep', values['keep'], 1, 1000);
  const store = storeOptions(values);
  const { db, close } = await openDatabase('unpublish', url);
  try {
    await migrateKnowledgeStore(db, store);
    // Each refusal said with the flag that fixes it (the store refuses them too, naming its options).
    const versions = await listKnowledgeVersions(db, { knowledgeBase, ...store });
    const labels = versions.map((v) => v.version).join(', ');
    if (versions.length === 0)
      throw new CliExit(
        `knowledge-kit unpublish: the store has no knowledge base \`${knowledgeBase}\`; check --kb (\`knowledge-kit serve --database …\` lists the knowledge bases).`,
      );
    const target = versions.find((v) => v.version === version);
    if (target === undefined)
      throw new CliExit(
        `knowledge-kit unpublish: --version ${version} is not a version of ${knowledgeBase} (it has ${labels}); pass one of them.`,
      );
    if (versions.length === 1)
      throw new CliExit(
        `knowledge-kit unpublish: ${version} is the only version of ${knowledgeBase}, and a knowledge base keeps at least one. Publish another version first (\`knowledge-kit publish <folder> --database … --kb ${knowledgeBase} --version LABEL\`), or publish into ${version} to replace its content.`,
      );
    if (nextDefault === version)
      throw new CliExit(
        `knowledge-kit unpublish: --default-version names the version being removed (${version}); name another version of ${knowledgeBase} (${versions
          .filter((v) => v !== target)
          .map((v) => v.version)
          .join(', ')}).`,
      );
    if (nextDefault !== undefined && !versions.some((v) => v.version === nextDefault))
      throw new CliExit(
        `knowledge-kit unpublish: --default-version ${nextDefault} is not a version of ${knowledgeBase} (it has ${labels}); pass one of them.`,
      );
    if (target.default && nextDefault === undefined)
      throw new CliExit(
        `knowledge-kit unpublish: ${version} is the default version of ${knowledgeBase}; name the version that becomes the default with --default-version (one of ${versions
          .filter((v) => v !== target)
          .map((v) => v.version)
          .join(
            ', ',
          )}), such as \`knowledge-kit unpublish --database … --kb ${knowledgeBase} --version ${version} --default-version ${versions.find((v) => v !== target)!.version}\`.`,
      );
    const done = await unpublishKnowledgeVersion(db, {
      knowledgeBase,
      version,
      ...store,
      ...(nextDefault === undefined ? {} : { defaultVersion: nextDefault }),
      ...(keep === undefined ? {} : { keep }),
    });
    io.stdout.write(
      `unpublished ${knowledgeBase} version ${version}; the default version is ${done.defaultVersion}${done.removed.length > 0 ? `; removed ${done.removed.map((r) => JSON.stringify(r)).join(', ')}` : ''}\n`,
    );
    return EXIT.ok;
  } catch (error) {
    throw databaseFailure('unpublish', error, EXIT.usage, 'nothing was removed');
  } finally {
    await close();
  }
}
