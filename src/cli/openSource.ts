/**
 * `openSource`: what `serve`, `mcp`, `search`, `read` and `outline` read, a folder or a database
 * (`--database <url>`), from their command line parsed against the one option table (`flags.ts`).
 * The commands then serve or query the knowledge bases it opened, without knowing where they are.
 */
import type { KnowledgeSource } from '../agent/index.js';
import type { LoadedKnowledgeDirectory } from '../node/index.js';
import type { KnowledgeDatabase } from '../postgres/index.js';
import { parseCommandArgs, type ParsedArgs } from './args.js';
import { flagsOf, folderGlobs, type SourceCommand } from './flags.js';
import { knowledgeBaseId, loadFolder, sourceOf, type ServedOptions } from './folder.js';
import { CliExit, type CliIo } from './io.js';
import { linkRootOption } from './linkRoot.js';
import { openLiveFolder, type LiveFolder } from './live.js';
import { DEFAULT_VERSION_LABEL } from '../agent/internals.js';
import { openVersions, type OpenedVersion } from './openVersions.js';
import {
  FOLDER_VERSION,
  READ_TOOL,
  versionArgs,
  versionRefused,
  type VersionFolder,
} from './versions.js';

/** Where the knowledge is: a folder, versions each a folder, or a knowledge store's database. */
export type SourcePlace =
  | { readonly kind: 'folder'; readonly dir: string }
  | {
      readonly kind: 'versions';
      /** `--version LABEL=FOLDER`, in the order given. */
      readonly folders: readonly VersionFolder[];
      /** `--default-version`, else the first label. */
      readonly defaultVersion: string;
    }
  | {
      readonly kind: 'database';
      readonly url: string;
      /** `--kb`: one knowledge base (`undefined` for `serve`, which serves every one). */
      readonly knowledgeBase: string | undefined;
      /** `--schema`. */
      readonly schema: string | undefined;
      /**
       * `--version` (search, read, outline): the one version read; `undefined`: every version the
       * knowledge base has when the command starts, the default one for calls that name none.
       */
      readonly version: string | undefined;
    };

/** A command line of a source command, parsed against the option table. */
export interface SourceArgs {
  readonly command: SourceCommand;
  readonly values: ParsedArgs['values'];
  /** `--help` was given. */
  readonly help: boolean;
  readonly place: SourcePlace;
  /** The arguments after the folder (or all of them with `--database`): a query, a document ID. */
  readonly args: readonly string[];
  /** `--version LABEL` of `search`, `read` and `outline`: the version to read. */
  readonly version?: string | undefined;
}

/** The arguments a command takes after its flags, on a folder (the folder first). */
const POSITIONALS: Readonly<Record<SourceCommand, number>> = {
  serve: 1,
  mcp: 1,
  search: 2,
  read: 2,
  outline: 1,
};

/** What a database form of each command looks like, for messages. */
const DATABASE_EXAMPLE: Readonly<Record<SourceCommand, string>> = {
  serve: '',
  mcp: '',
  search: ' "return window"',
  read: ' guide',
  outline: '',
};

/**
 * Parses `argv` for `command` against the option table: unknown options, a flag of a folder given with
 * `--database` (or one of a database without it), a missing `--kb` or an extra argument is a usage
 * error (exit 2, one line).
 *
 * @throws {CliExit} exit 2.
 */
export function parseSourceArgs(command: SourceCommand, argv: readonly string[]): SourceArgs {
  const flags = flagsOf(command);
  const options: Record<
    string,
    { type: 'string' | 'boolean'; short?: string; multiple?: boolean }
  > = {};
  for (const flag of flags)
    options[flag.name] = {
      type: flag.type,
      ...(flag.short === undefined ? {} : { short: flag.short }),
      ...(flag.multiple === true ? { multiple: true } : {}),
    };
  const { values, positionals } = parseCommandArgs(command, argv, options, POSITIONALS[command]);
  const help = values['help'] === true;
  const url = values['database'];
  if (help || typeof url !== 'string') {
    for (const flag of flags)
      if (!help && flag.source === 'database' && values[flag.name] !== undefined)
        throw new CliExit(
          `knowledge-kit ${command}: --${flag.name} goes with --database <url>, which reads a knowledge store instead of a folder. Run \`knowledge-kit ${command} --help\`.`,
        );
    const versions = help
      ? undefined
      : versionArgs(command, values, positionals.length >= POSITIONALS[command]);
    if (versions !== undefined && versions.folders.length > 0)
      return {
        command,
        values,
        help,
        place: {
          kind: 'versions',
          folders: versions.folders,
          defaultVersion: versions.defaultVersion!,
        },
        args: positionals,
        version: versions.read,
      };
    return {
      command,
      values,
      help,
      place: { kind: 'folder', dir: positionals[0] ?? '.' },
      args: positionals.slice(1),
      version: versions?.read,
    };
  }
  for (const flag of flags)
    if (flag.source === 'folder' && values[flag.name] !== undefined)
      throw new CliExit(
        `knowledge-kit ${command}: --${flag.name} reads a folder; it does not go with --database, whose calls read the store's active revision. Run \`knowledge-kit ${command} --help\`.`,
      );
  // `--version LABEL=FOLDER` names folders; with --database, `--version LABEL` alone.
  const givenVersions = values['version'];
  const namesFolder = (Array.isArray(givenVersions) ? givenVersions : [givenVersions]).some(
    (text) => typeof text === 'string' && text.includes('='),
  );
  if (namesFolder)
    throw new CliExit(
      `knowledge-kit ${command}: --version LABEL=FOLDER names a version's folder; it does not go with --database. Run \`knowledge-kit ${command} --help\`.`,
    );
  const { read: version } = versionArgs(command, values, false);
  const knowledgeBase = values['kb'] as string | undefined;
  if (command === 'serve') {
    if (positionals.length > 0)
      throw new CliExit(
        'knowledge-kit serve: --database serves the knowledge bases of the store, not a folder: drop the folder argument.',
      );
  } else if (knowledgeBase === undefined || positionals.length >= POSITIONALS[command]) {
    throw new CliExit(
      `knowledge-kit ${command}: --database reads one knowledge base of the store: pass --kb <id> and no folder, such as \`knowledge-kit ${command} --database postgres://localhost/kb --kb handbook${DATABASE_EXAMPLE[command]}\`.`,
    );
  }
  return {
    command,
    values,
    help,
    place: {
      kind: 'database',
      url,
      knowledgeBase,
      schema: values['schema'] as string | undefined,
      version,
    },
    args: positionals,
    version,
  };
}

/** One knowledge base an opened source serves. */
export interface OpenedKnowledgeBase {
  readonly id: string;
  readonly title: string;
  readonly source: KnowledgeSource;
  /** Its pages, when the store says (a database). */
  readonly pages?: number;
}

/** What `openSource` opened. */
export interface OpenedSource {
  /** The folder (`` `dir` ``) or `the database`, for messages. */
  readonly where: string;
  /** The knowledge as a command line names it again: `[dir]` or `--database url --kb id`. */
  readonly words: readonly string[];
  /** The folder's or `--kb`'s knowledge base; `undefined` for every one of a store (`serve`). */
  readonly single: OpenedKnowledgeBase | undefined;
  /** The knowledge bases served now: the single one, or those the store has now (a publish adds one). */
  knowledgeBases(): Promise<readonly OpenedKnowledgeBase[]>;
  /** A folder loaded whole (not `live`): its catalog and file paths. */
  readonly loaded?: LoadedKnowledgeDirectory;
  /** A folder served file by file (`live`); of versions, the default version's. */
  readonly live?: LiveFolder;
  /** The versions of `--version LABEL=FOLDER`, each with its folder. */
  readonly versions?: readonly OpenedVersion[];
  /** Stops watching, closes the database. */
  close(): Promise<void>;
}

/** How to open: file by file for a long-running command, and the sources' own settings. */
export interface OpenOptions {
  /** Serve a folder file by file (broken files left out), watching it with `watch`; else load it whole (problems end the command). */
  readonly live?: { readonly watch: boolean } | undefined;
  /** Cursor key and read limit of every source. */
  readonly served?: ServedOptions;
}

/**
 * Opens the folder or the database `args` names: a folder with `--id` (default its name), or the
 * knowledge base `--kb` of a database (checked to exist), or every knowledge base of it (`serve`).
 *
 * @throws {CliExit} exit 1 for a folder with problems (loaded whole), 2 for one that cannot be read, a
 *   database that cannot be opened or read, or an unknown `--kb`.
 */
export async function openSource(
  args: SourceArgs,
  io: CliIo,
  options: OpenOptions = {},
): Promise<OpenedSource> {
  const { command, values, place } = args;
  const served = options.served ?? {};
  if (place.kind === 'versions') return openFolderVersions(args, place, io, options);
  if (place.kind === 'folder') {
    const { dir } = place;
    // A plain folder is one version, `current`: another is refused, never read from this folder.
    if (args.version !== undefined && args.version !== FOLDER_VERSION)
      throw versionRefused(command, READ_TOOL[command], args.version, [
        { version: FOLDER_VERSION, default: true },
      ]);
    const id = knowledgeBaseId(dir, values['id']);
    const load = {
      followLinks: values['follow-links'] === true,
      ...folderGlobs(values),
      ...linkRootOption(command, dir, values['link-root']),
    };
    // The globs are part of what the folder is: a command printed for the user repeats them.
    const globWords = [
      ...(load.include ?? []).flatMap((glob) => ['--include', glob]),
      ...(load.exclude ?? []).flatMap((glob) => ['--exclude', glob]),
    ];
    const base = { where: `\`${dir}\``, words: [dir, ...globWords] };
    if (options.live !== undefined) {
      const live = await openLiveFolder(command, dir, id, options.live.watch, io, load, served);
      const single = { id, title: id, source: live.source };
      return {
        ...base,
        single,
        live,
        knowledgeBases: () => Promise.resolve([single]),
        close: () => live.close(),
      };
    }
    const loaded = await loadFolder(command, dir, io, load);
    const single = { id, title: id, source: sourceOf(loaded, id, served) };
    return {
      ...base,
      single,
      loaded,
      knowledgeBases: () => Promise.resolve([single]),
      close: () => Promise.resolve(),
    };
  }
  // `--version LABEL` with --database is the store's: `openStore` serves that version only.
  return openStore(command, place, served);
}

/** The folders of `--version LABEL=FOLDER`, as one knowledge base with versions (`openVersions`). */
async function openFolderVersions(
  args: SourceArgs,
  place: Extract<SourcePlace, { kind: 'versions' }>,
  io: CliIo,
  options: OpenOptions,
): Promise<OpenedSource> {
  const { command, values } = args;
  const opened = await openVersions(
    command,
    place.folders,
    place.defaultVersion,
    args.version,
    values,
    io,
    options.live,
    options.served ?? {},
  );
  const globWords = Object.entries(folderGlobs(values)).flatMap(([name, globs]) =>
    (globs ?? []).flatMap((glob: string) => [`--${name}`, glob]),
  );
  const single = { id: opened.id, title: opened.id, source: opened.source };
  const read = opened.read;
  return {
    where: place.folders.map((version) => `\`${version.dir}\``).join(', '),
    words: [...opened.words, ...globWords],
    single,
    ...(read.loaded === undefined ? {} : { loaded: read.loaded }),
    ...(read.live === undefined ? {} : { live: read.live }),
    versions: opened.versions,
    knowledgeBases: () => Promise.resolve([single]),
    close: () => opened.close(),
  };
}

/** The database half of `openSource`; the drivers and the store are loaded only here. */
async function openStore(
  command: SourceCommand,
  place: Extract<SourcePlace, { kind: 'database' }>,
  served: ServedOptions,
): Promise<OpenedSource> {
  const [
    { openDatabase, storeUnreadable },
    { createPostgresSource, listKnowledgeBases, listKnowledgeVersions },
    { createVersionedSource },
  ] = await Promise.all([
    import('./openDatabase.js'),
    import('../postgres/index.js'),
    import('../agent/index.js'),
  ]);
  const { url, knowledgeBase, schema, version } = place;
  const store = schema === undefined ? {} : { schema };
  const { db, close } = await openDatabase(command, url);
  const list = (database: KnowledgeDatabase) => listKnowledgeBases(database, store);
  let known;
  try {
    known = await list(db);
  } catch (error) {
    await close();
    throw storeUnreadable(command, error);
  }
  /** The versions of knowledge base `id` now; none for a store made before versions existed. */
  const versionsOf = (id: string) =>
    listKnowledgeVersions(db, { knowledgeBase: id, ...store }).catch(() => []);
  /**
   * The source of knowledge base `id`: with `--version`, that version's; else every version it has
   * now, each its own source (reading that version's active revision on each call), composed with
   * `createVersionedSource` (calls that name no version read the default one). A knowledge base of
   * one version `current` (published without versions) is served as before versions existed: one
   * source reading its default version on each call. Versions published, or a default changed, after
   * this are served after a restart.
   */
  const makeSource = async (id: string): Promise<KnowledgeSource> => {
    const base = { knowledgeBase: id, ...store, ...served };
    if (version !== undefined) return createPostgresSource(db, { ...base, version });
    const versions = await versionsOf(id);
    const fallback = versions.find((v) => v.default)?.version;
    if (
      fallback === undefined ||
      (versions.length === 1 && versions[0]!.version === DEFAULT_VERSION_LABEL)
    )
      return createPostgresSource(db, base);
    const sources: Record<string, KnowledgeSource> = {};
    for (const v of versions)
      sources[v.version] = createPostgresSource(db, { ...base, version: v.version });
    return createVersionedSource({ versions: sources, default: fallback });
  };
  // Sources cost nothing to make and read the active revision on each call: one per knowledge base.
  const sources = new Map<string, Promise<KnowledgeSource>>();
  const sourceOfBase = (id: string): Promise<KnowledgeSource> => {
    let source = sources.get(id);
    if (source === undefined) {
      source = makeSource(id);
      sources.set(id, source);
      source.catch(() => sources.delete(id));
    }
    return source;
  };
  const words = ['--database', url, ...(schema === undefined ? [] : ['--schema', schema])];
  if (knowledgeBase === undefined) {
    const opened = async (kb: {
      id: string;
      title: string;
      pages: number;
    }): Promise<OpenedKnowledgeBase> => ({
      id: kb.id,
      title: kb.title,
      pages: kb.pages,
      source: await sourceOfBase(kb.id),
    });
    return {
      where: 'the database',
      words,
      single: undefined,
      knowledgeBases: async () => Promise.all((await list(db)).map(opened)),
      close,
    };
  }
  const found = known.find((kb) => kb.id === knowledgeBase);
  if (found === undefined) {
    await close();
    throw new CliExit(
      `knowledge-kit ${command}: the store has no knowledge base \`${knowledgeBase}\`${known.length === 0 ? '' : ` (it has ${known.map((kb) => `\`${kb.id}\``).join(', ')})`}; publish it first with \`knowledge-kit publish <folder> --database … --kb ${knowledgeBase}\`.`,
    );
  }
  if (version !== undefined) {
    const versions = await versionsOf(found.id);
    if (!versions.some((v) => v.version === version)) {
      await close();
      throw new CliExit(
        `knowledge-kit ${command}: --version ${version} is not a version of ${found.id} (it has ${versions.length === 0 ? 'current' : versions.map((v) => `${v.version}${v.default ? ' (default)' : ''}`).join(', ')}); pass one of them, or leave --version out for the default.`,
      );
    }
  }
  const single = {
    id: found.id,
    title: found.title,
    pages: found.pages,
    source: await sourceOfBase(found.id),
  };
  return {
    where: 'the database',
    words: [
      ...words,
      '--kb',
      knowledgeBase,
      ...(version === undefined ? [] : ['--version', version]),
    ],
    single,
    knowledgeBases: () => Promise.resolve([single]),
    close,
  };
}
