/**
 * The one option table of the commands that read knowledge (`serve`, `mcp`, `search`, `read`,
 * `outline`): each flag once, with the commands that take it, whether it reads a folder, a database or
 * either, and its help. Parsing (`openSource`) and `--help` (`help.ts`) are both derived from it. The
 * folder's globs (`--include`, `--exclude`) are in it too, and `check`, `export` and `publish`, which
 * load a folder without `openSource`, take them from it (`FOLDER_GLOB_FLAGS`).
 */

/** The commands that read a folder or a database through `openSource`. */
export type SourceCommand = 'serve' | 'mcp' | 'search' | 'read' | 'outline';

/** Where a flag applies: a folder, a database (`--database`), or either. */
export type FlagSource = 'folder' | 'database' | 'both';

/** One flag of the table. */
export interface SourceFlag {
  /** The long name, without `--`. */
  readonly name: string;
  readonly type: 'string' | 'boolean';
  /** A one-letter alias. */
  readonly short?: string;
  /** Repeatable (the values are collected in order). */
  readonly multiple?: boolean;
  /** What the value is called in the usage line (`n`, `dir`). */
  readonly value?: string;
  /** The commands that take it. */
  readonly commands: readonly SourceCommand[];
  readonly source: FlagSource;
  /** Its help: one text for every command, or one per command; `\n` starts a new line. */
  readonly help: string | { readonly [command in SourceCommand]?: string };
}

const ALL: readonly SourceCommand[] = ['serve', 'mcp', 'search', 'read', 'outline'];
const LINK_ROOT_HELP =
  "the folder a site-root link's `/` stands for (`/learn/state`,\n`/guide/list.html`, `/api/`): the docs site's root; the folder itself\n(default), a folder inside it, or one that holds it";
const MAX_CHARS_HELP =
  'the read limit of each read_file part, in code points (default 20000);\nlonger texts are read in parts (nextCursor)';

const INCLUDE_HELP =
  'load only the files this glob matches, relative to the folder (repeatable; such\nas `guide/**`); default every .md, .mdx and .markdown file';
const EXCLUDE_HELP =
  'leave out the files or folders this glob matches (repeatable; such as\n`drafts/**`); node_modules and dot folders are always left out';

/** Every flag of `serve`, `mcp`, `search`, `read` and `outline`, in the order `--help` lists them. */
export const SOURCE_FLAGS: readonly SourceFlag[] = [
  {
    name: 'port',
    type: 'string',
    value: 'n',
    commands: ['serve'],
    source: 'both',
    help: 'port (default 8787; 0 picks a free one)',
  },
  {
    name: 'host',
    type: 'string',
    value: 'h',
    commands: ['serve'],
    source: 'both',
    help: 'address to listen on (default 127.0.0.1); one other machines reach, without\n--token-file, prints a warning; 0.0.0.0 prints the loopback URL',
  },
  {
    name: 'allowed-host',
    type: 'string',
    value: 'name',
    multiple: true,
    commands: ['serve'],
    source: 'both',
    help: 'on loopback, a host name answered besides localhost, 127.0.0.1 and [::1]\n(repeatable); any other Host header gets 403 (DNS rebinding)',
  },
  {
    name: 'allowed-origin',
    type: 'string',
    value: 'origin',
    multiple: true,
    commands: ['serve'],
    source: 'both',
    help: 'on loopback, a browser origin (https://app.example) answered besides\nloopback origins (repeatable); any other Origin gets 403',
  },
  {
    name: 'id',
    type: 'string',
    value: 'name',
    commands: ['serve', 'mcp'],
    source: 'folder',
    help: {
      serve: "knowledge base ID (default the folder's name)",
      mcp: "knowledge base ID that cursors are bound to (default the folder's name)",
    },
  },
  {
    name: 'base-path',
    type: 'string',
    value: 'p',
    commands: ['serve'],
    source: 'both',
    help: 'path before /knowledge-bases (default none), such as /openapi/v2',
  },
  {
    name: 'mode',
    type: 'string',
    value: 'm',
    commands: ['search'],
    source: 'both',
    help: 'hybrid (default), file or graph',
  },
  {
    name: 'limit',
    type: 'string',
    value: 'n',
    commands: ['search'],
    source: 'both',
    help: 'candidates to show, 1 to 50 (default 10)',
  },
  {
    name: 'self',
    type: 'string',
    multiple: true,
    value: 'ids',
    commands: ['read'],
    source: 'both',
    help: "read these sections' own text",
  },
  {
    name: 'subtree',
    type: 'string',
    multiple: true,
    value: 'ids',
    commands: ['read'],
    source: 'both',
    help: 'read these sections with everything inside them',
  },
  {
    name: 'heading',
    type: 'string',
    value: 'id',
    commands: ['read'],
    source: 'both',
    help: "read one heading's range (an ID that outline lists), from its line to the next\nheading of the same or a higher level; not with --self or --subtree",
  },
  {
    name: 'token-file',
    type: 'string',
    value: 'f',
    commands: ['serve'],
    source: 'both',
    help: 'require "Authorization: Bearer <token>", the token being the file\'s content\n(visible ASCII, then only line feeds); other requests get 401',
  },
  {
    name: 'access-file',
    type: 'string',
    value: 'f',
    commands: ['serve'],
    source: 'both',
    help: 'instead of --token-file: a JSON object from token to the knowledge base IDs\nit may read, such as {"s3cret": ["handbook"]}; other requests get 401',
  },
  {
    name: 'max-chars',
    type: 'string',
    value: 'n',
    commands: ['serve', 'mcp', 'search', 'read'],
    source: 'both',
    help: {
      serve: MAX_CHARS_HELP,
      mcp: MAX_CHARS_HELP,
      search:
        'the read limit of each part, as serve and mcp take it; prints the read command\nfor the top candidate in parts of that size',
      read: 'read in parts of at most n code points, as read_file gives them to an agent: the\nfirst part, cut at a paragraph boundary; stderr says which part and prints the\ncommand for the next one (with --cursor)',
    },
  },
  {
    name: 'cursor',
    type: 'string',
    value: 'c',
    commands: ['read'],
    source: 'both',
    help: 'with --max-chars: the next part, from the cursor the previous part printed',
  },
  {
    name: 'cursor-key-file',
    type: 'string',
    value: 'f',
    commands: ['serve', 'mcp'],
    source: 'both',
    help: "sign cursors with the file's secret (at least 16 bytes, then only line\nfeeds) instead of the key kept in the user's state folder\n($XDG_STATE_HOME/knowledge-kit/cursor-key, created once): give replicas\non other machines behind one URL the same file so each accepts the others' cursors",
  },
  {
    name: 'text',
    type: 'string',
    value: 'compact|json',
    commands: ['serve', 'mcp'],
    source: 'both',
    help: {
      mcp: "what a tool result's text block holds: compact (default), written for the\nmodel (IDs, paths, cursors, statuses and snapshotId, read_file's page as\nMarkdown), or json, the structuredContent serialised (for clients that\nparse the text)",
      serve:
        "what an MCP tool result's text block holds at <id>/mcp: compact (default),\nwritten for the model (IDs, paths, cursors, statuses, snapshotId and the\nread-action URLs, read_file's page as Markdown), or json, the\nstructuredContent serialised (for clients that parse the text)",
    },
  },
  {
    name: 'json',
    type: 'boolean',
    commands: ['search', 'read', 'outline'],
    source: 'both',
    help: {
      search: 'print the whole search_files output as JSON',
      read: 'print the whole snapshot { id, documentId, selection, revision, locale, content }\nas JSON (with --max-chars, or with --database: the read_file output, with\ncontentRange and nextCursor)',
      outline:
        'one JSON object: { documents: [{ id, file, locale, revision, chars, sections: [{ id, self, subtree, sections }], headings: [{ id, text, depth, chars }] }] }',
    },
  },
  {
    name: 'path-prefix',
    type: 'string',
    value: 'prefix',
    multiple: true,
    commands: ['search'],
    source: 'both',
    help: 'only pages whose path starts with it, as the tools write paths (such as\n`pages/guide/`); repeatable: any of them',
  },
  {
    name: 'tag',
    type: 'string',
    value: 'tag',
    multiple: true,
    commands: ['search'],
    source: 'both',
    help: 'only pages whose front matter tags hold it; repeatable: all of them',
  },
  {
    name: 'locale',
    type: 'string',
    value: 'locale',
    commands: ['search'],
    source: 'both',
    help: 'only pages of this locale (front matter `locale`)',
  },
  {
    name: 'watch',
    type: 'boolean',
    commands: ['serve', 'mcp'],
    source: 'folder',
    help: "reload on change, file by file, without dropping requests: a good edit is\nserved at once; a broken file's problems are printed and its last good\nversion stays",
  },
  {
    name: 'include',
    type: 'string',
    value: 'glob',
    multiple: true,
    commands: ALL,
    source: 'folder',
    help: INCLUDE_HELP,
  },
  {
    name: 'exclude',
    type: 'string',
    value: 'glob',
    multiple: true,
    commands: ALL,
    source: 'folder',
    help: EXCLUDE_HELP,
  },
  {
    name: 'follow-links',
    type: 'boolean',
    commands: ALL,
    source: 'folder',
    help: 'follow symbolic links that stay inside the folder (default: no link is\nfollowed; links out of the folder and special files are always refused)',
  },
  {
    name: 'link-root',
    type: 'string',
    value: 'dir',
    commands: ['serve', 'mcp', 'search'],
    source: 'folder',
    help: LINK_ROOT_HELP,
  },
  {
    name: 'version',
    type: 'string',
    value: 'label=dir',
    multiple: true,
    commands: ['serve', 'mcp'],
    source: 'folder',
    help: 'serve folder dir as version label (1 to 64 of A-Z a-z 0-9 . _ -) instead of\none folder; repeat it for each version (one knowledge base, `version` on\neach call); with --watch each folder reloads on its own',
  },
  {
    name: 'default-version',
    type: 'string',
    value: 'label',
    commands: ['serve', 'mcp'],
    source: 'folder',
    help: 'the version a call that names none reads (default: the first --version)',
  },
  {
    name: 'version',
    type: 'string',
    value: 'label[=dir]',
    multiple: true,
    commands: ['search', 'read', 'outline'],
    source: 'both',
    help: 'with label=dir (repeatable, instead of a folder): the folder of version label;\nwith label alone: the version to read (default: the first label=dir); a plain\nfolder is version `current`, and another label is VERSION_NOT_FOUND; with\n--database: the version of --kb to read (default its default version; the\nversions command lists them)',
  },
  {
    name: 'rate-limit',
    type: 'string',
    value: 'n',
    commands: ['serve'],
    source: 'both',
    help: 'calls per second each client address may make, in bursts of 4×n\n(default 20; 0 turns the limit off); over it, 429 with Retry-After',
  },
  {
    name: 'quiet',
    type: 'boolean',
    short: 'q',
    commands: ['serve'],
    source: 'both',
    help: 'no request log (start-up, reload and error lines stay)',
  },
  {
    name: 'log',
    type: 'string',
    value: 'text|json',
    commands: ['serve'],
    source: 'both',
    help: 'request log format: text (default) or one JSON object a line\n{ time, method, path, status, ms }',
  },
  {
    name: 'database',
    type: 'string',
    value: 'url',
    commands: ALL,
    source: 'database',
    help: {
      serve:
        'serve every knowledge base of a PostgreSQL knowledge store (postgres://… or\npglite:<folder>; see knowledge-kit publish) instead of a folder, each call\nreading the active revision; with --token-file one token reads them all; every\nversion a knowledge base has at start is served (restart for new versions)',
      mcp: 'serve the knowledge base --kb of a PostgreSQL knowledge store instead of a folder\n(postgres://… or pglite:<folder>; see knowledge-kit publish); each call reads the\nactive revision, so a publish is served on the next call; every version it has\nat start is served (restart for new versions)',
      search:
        'search the knowledge base --kb of a PostgreSQL knowledge store (postgres://… or\npglite:<folder>) instead of a folder: its active revision',
      read: 'read from the knowledge base --kb of a PostgreSQL knowledge store (postgres://…\nor pglite:<folder>) instead of a folder: its active revision',
      outline:
        'outline the knowledge base --kb of a PostgreSQL knowledge store (postgres://… or\npglite:<folder>) instead of a folder: its active revision',
    },
  },
  {
    name: 'kb',
    type: 'string',
    value: 'id',
    commands: ['mcp', 'search', 'read', 'outline'],
    source: 'database',
    help: 'with --database: the knowledge base (required)',
  },
  {
    name: 'schema',
    type: 'string',
    value: 's',
    commands: ALL,
    source: 'database',
    help: "with --database: the store's schema (default knowledge_kit)",
  },
  {
    name: 'no-mcp',
    type: 'boolean',
    commands: ['serve'],
    source: 'both',
    help: 'serve no MCP endpoint (only the REST routes)',
  },
];

/** The flags `command` takes, in table order. */
export function flagsOf(command: SourceCommand): readonly SourceFlag[] {
  return SOURCE_FLAGS.filter((flag) => flag.commands.includes(command));
}

/** A flag's help for `command`. */
export function flagHelp(flag: SourceFlag, command: SourceCommand): string {
  return typeof flag.help === 'string' ? flag.help : (flag.help[command] ?? '');
}

/**
 * `--include` and `--exclude`: the folder's globs, as every command that loads a folder takes them
 * (`check`, `export` and `publish` too, which parse their own options).
 */
export const FOLDER_GLOB_FLAGS: readonly SourceFlag[] = SOURCE_FLAGS.filter(
  (flag) => flag.name === 'include' || flag.name === 'exclude',
);

/** `--include` and `--exclude` as `node:util` `parseArgs` options. */
export const FOLDER_GLOB_OPTIONS = {
  include: { type: 'string', multiple: true },
  exclude: { type: 'string', multiple: true },
} as const;

/**
 * The `--help` lines of `--include` and `--exclude`, their text starting at column `width` + 2 (for
 * the commands whose help is written out: `check`, `export`, `publish`).
 *
 * @param width - the width of the label column.
 * @returns the lines, joined by line feeds.
 */
export function folderGlobHelp(width: number): string {
  return FOLDER_GLOB_FLAGS.flatMap((flag) =>
    (flag.help as string)
      .split('\n')
      .map(
        (line, i) => `  ${(i === 0 ? `--${flag.name} ${flag.value!}` : '').padEnd(width)}${line}`,
      ),
  ).join('\n');
}

/**
 * The loader's `include` and `exclude` of parsed `--include` and `--exclude` values (each left out
 * when not given).
 *
 * @param values - the parsed command line.
 * @returns the loader's options.
 */
export function folderGlobs(values: {
  readonly [name: string]: string | boolean | (string | boolean)[] | undefined;
}): { readonly include?: readonly string[]; readonly exclude?: readonly string[] } {
  const list = (name: string): readonly string[] | undefined => {
    const value = values[name];
    return Array.isArray(value) ? value.map(String) : undefined;
  };
  const include = list('include');
  const exclude = list('exclude');
  return {
    ...(include === undefined ? {} : { include }),
    ...(exclude === undefined ? {} : { exclude }),
  };
}
