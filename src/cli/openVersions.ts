/**
 * Versions of folders (`--version LABEL=FOLDER`, repeatable): one knowledge base whose versions are
 * each a folder, composed with `createVersionedSource`. `serve` and `mcp` open every folder file by
 * file (each watched on its own with `--watch`); `search`, `read` and `outline` load the version they
 * read, and another version only if a call reaches it (a cursor of that version).
 */
import {
  createVersionedSource,
  type KnowledgeCallContext,
  type KnowledgeSource,
} from '../agent/index.js';
import { KNOWLEDGE_TOOLS, versionView } from '../agent/internals.js';
import type { LoadedKnowledgeDirectory } from '../node/index.js';
import { folderGlobs, type SourceCommand } from './flags.js';
import { knowledgeBaseId, loadFolder, sourceOf, type ServedOptions } from './folder.js';
import type { CliIo } from './io.js';
import { linkRootOption } from './linkRoot.js';
import { openLiveFolder, type LiveFolder } from './live.js';
import { READ_TOOL, versionRefused, type VersionFolder } from './versions.js';

/** One version of a knowledge base served or read from its folder. */
export interface OpenedVersion {
  readonly label: string;
  readonly dir: string;
  /** Whether a call that names no version reads it. */
  readonly default: boolean;
  /** Its own source (the knowledge base's source routes to it). */
  readonly source: KnowledgeSource;
  /** Its folder served file by file (`serve`, `mcp`). */
  readonly live?: LiveFolder;
  /** Its folder loaded whole (the version `search`, `read` and `outline` read). */
  readonly loaded?: LoadedKnowledgeDirectory;
}

/** What `openVersions` opened. */
export interface OpenedVersions {
  readonly id: string;
  /** The knowledge base: every version, routed by `version`. */
  readonly source: KnowledgeSource;
  /** Every version, in the order given; the default marked. */
  readonly versions: readonly OpenedVersion[];
  /** The version read (`search`, `read`, `outline`): the one named by `--version LABEL`, else the default. */
  readonly read: OpenedVersion;
  /** The versions as a command line names them again: `--version a=dir …` and the `--version` read. */
  readonly words: readonly string[];
  close(): Promise<void>;
}

/** A source that loads its knowledge on its first call (a version a command reads only if asked). */
function lazySource(open: () => Promise<KnowledgeSource>): KnowledgeSource {
  let opening: Promise<KnowledgeSource> | undefined;
  const methods: Record<string, unknown> = {};
  for (const { method } of KNOWLEDGE_TOOLS)
    methods[method] = async (input: unknown, context?: KnowledgeCallContext) => {
      const source = (await (opening ??= open())) as unknown as Record<
        string,
        (input: unknown, context?: KnowledgeCallContext) => Promise<unknown>
      >;
      return source[method]!(input, context);
    };
  methods['warm'] = async (context?: KnowledgeCallContext) =>
    (await (opening ??= open())).warm?.(context);
  return methods as unknown as KnowledgeSource;
}

/**
 * Opens the folders of `--version LABEL=FOLDER` as one knowledge base, `--id` (default the default
 * version's folder name).
 *
 * @param command - the command.
 * @param folders - the versions and their folders, in the order given.
 * @param defaultVersion - the version a call that names none reads.
 * @param asked - `--version LABEL` (the version `search`, `read` and `outline` read), if given.
 * @param values - the parsed command line (`--id`, the globs, `--follow-links`, `--link-root`).
 * @param io - for problems and lines.
 * @param live - serve each folder file by file (`serve`, `mcp`), watching it with `watch`.
 * @param served - each version's cursor key and read limit.
 * @throws {CliExit} as a folder's load does; `VERSION_NOT_FOUND` for an `asked` not among them.
 */
export async function openVersions(
  command: SourceCommand,
  folders: readonly VersionFolder[],
  defaultVersion: string,
  asked: string | undefined,
  values: { readonly [name: string]: unknown },
  io: CliIo,
  live: { readonly watch: boolean } | undefined,
  served: ServedOptions,
): Promise<OpenedVersions> {
  const fallback = folders.find((version) => version.label === defaultVersion)!;
  const id = knowledgeBaseId(fallback.dir, values['id']);
  const listed = folders.map((version) => ({
    version: version.label,
    default: version.label === defaultVersion,
  }));
  const readLabel = asked ?? defaultVersion;
  if (live === undefined && !folders.some((version) => version.label === readLabel))
    throw versionRefused(command, READ_TOOL[command], readLabel, listed);
  const loadOptions = (dir: string) => ({
    followLinks: values['follow-links'] === true,
    ...folderGlobs(values as Parameters<typeof folderGlobs>[0]),
    ...linkRootOption(command, dir, values['link-root']),
  });
  const opened: OpenedVersion[] = [];
  try {
    for (const { label, dir } of folders) {
      const isDefault = label === defaultVersion;
      if (live !== undefined) {
        const folder = await openLiveFolder(
          command,
          dir,
          id,
          live.watch,
          io,
          loadOptions(dir),
          served,
          label,
        );
        opened.push({ label, dir, default: isDefault, source: folder.source, live: folder });
      } else if (label === readLabel) {
        const loaded = await loadFolder(command, dir, io, loadOptions(dir));
        opened.push({
          label,
          dir,
          default: isDefault,
          source: sourceOf(loaded, id, served),
          loaded,
        });
      } else {
        const source = lazySource(async () =>
          sourceOf(await loadFolder(command, dir, io, loadOptions(dir)), id, served),
        );
        opened.push({ label, dir, default: isDefault, source });
      }
    }
  } catch (error) {
    await Promise.all(opened.map((version) => version.live?.close()));
    throw error;
  }
  const versioned = createVersionedSource({
    versions: Object.fromEntries(opened.map((version) => [version.label, version.source])),
    default: defaultVersion,
  });
  const words = [
    ...folders.flatMap((version) => ['--version', `${version.label}=${version.dir}`]),
    ...(asked === undefined ? [] : ['--version', asked]),
  ];
  return {
    id,
    // A version named on the command line is asked of each call (a cursor of another is refused).
    source: asked === undefined || live !== undefined ? versioned : versionView(versioned, asked),
    versions: opened,
    read: opened.find((version) => version.label === readLabel) ?? opened[0]!,
    words,
    close: async () => {
      await Promise.all(opened.map((version) => version.live?.close()));
    },
  };
}
