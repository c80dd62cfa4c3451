/** The `knowledge-kit` command: dispatch, top-level help, and the exit code of each run. */
import {
  CHECK_HELP,
  DIFF_HELP,
  EXPORT_HELP,
  MCP_HELP,
  OUTLINE_HELP,
  PUBLISH_HELP,
  READ_HELP,
  SEARCH_HELP,
  SERVE_HELP,
  UNPUBLISH_HELP,
  VERSIONS_HELP,
} from './help.js';
import { CliExit, EXIT, type CliIo } from './io.js';
import { packageVersion } from './version.js';

type Command = (argv: readonly string[], io: CliIo) => Promise<number>;

// Each command is loaded when it runs: `check` and `--version` need neither the HTTP server, the MCP
// SDK nor the watcher, and a command line's start-up is part of every CI step's time.
const COMMANDS: Readonly<Record<string, { load: () => Promise<Command>; help: string }>> = {
  check: { load: async () => (await import('./commands/check.js')).check, help: CHECK_HELP },
  outline: {
    load: async () => (await import('./commands/outline.js')).outline,
    help: OUTLINE_HELP,
  },
  read: { load: async () => (await import('./commands/read.js')).read, help: READ_HELP },
  search: { load: async () => (await import('./commands/search.js')).search, help: SEARCH_HELP },
  // A folder or, with --database, a knowledge store: both through `openSource` (openSource.ts).
  serve: { load: async () => (await import('./commands/serve.js')).serve, help: SERVE_HELP },
  mcp: { load: async () => (await import('./commands/mcp.js')).mcp, help: MCP_HELP },
  publish: {
    load: async () => (await import('./commands/publish.js')).publish,
    help: PUBLISH_HELP,
  },
  versions: {
    load: async () => (await import('./commands/versions.js')).versions,
    help: VERSIONS_HELP,
  },
  unpublish: {
    load: async () => (await import('./commands/unpublish.js')).unpublish,
    help: UNPUBLISH_HELP,
  },
  export: {
    load: async () => (await import('./commands/export.js')).exportCommand,
    help: EXPORT_HELP,
  },
  diff: { load: async () => (await import('./commands/diff.js')).diff, help: DIFF_HELP },
};

/** The top-level help: one line per command. */
export const HELP = `Usage: knowledge-kit <command> [options]

Commands:
  check [paths…]               find every problem in folders of anchored Markdown (CI-friendly)
  outline [dir]                each document's sections as a tree, with their sizes
  read <dir> <documentId>      a snapshot, as an app hands it to a model
  search <dir> <query>         what the search_files tool finds for an agent
  serve [dir]                  a read-only HTTP knowledge base for agents that run curl
  mcp [dir]                    the six knowledge tools for an MCP client, on stdio
  publish <dir> --database url publish a folder to a PostgreSQL knowledge store, as a revision
  versions --database url      the versions of a knowledge base in a store (--kb id)
  unpublish --database url     remove one version of a knowledge base from a store
  export <dir> --out folder    write a folder as a static bundle any web host serves (llms.txt too)
  diff --version A=DIR --version B=DIR
                               what changed between two versions: pages, sections, headings

Run \`knowledge-kit <command> --help\` for a command's options. --version prints the version.
Exit codes: 0 success, 1 problems found, 2 usage or I/O error.`;

/**
 * Runs the command line `argv` (without `node` and the script), writing to `io`.
 *
 * @returns the exit code: 0 success, 1 problems found, 2 usage or I/O error.
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    const topic = name === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    if (name === undefined) {
      io.stderr.write(`${HELP}\n`);
      return EXIT.usage;
    }
    io.stdout.write(`${topic?.help ?? HELP}\n`);
    return EXIT.ok;
  }
  if (name === '--version' || name === '-v') {
    io.stdout.write(`${packageVersion()}\n`);
    return EXIT.ok;
  }
  const command = Object.prototype.hasOwnProperty.call(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (command === undefined) {
    io.stderr.write(
      `knowledge-kit: unknown command \`${name}\`. The commands are ${Object.keys(COMMANDS).join(', ')}; run \`knowledge-kit --help\`.\n`,
    );
    return EXIT.usage;
  }
  try {
    return await (
      await command.load()
    )(rest, io);
  } catch (error) {
    if (error instanceof CliExit) {
      io.stderr.write(`${error.message}\n`);
      return error.exitCode;
    }
    io.stderr.write(
      `knowledge-kit ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    return EXIT.usage;
  }
}
