/** The help text of each command, apart from the commands so that `--help` loads none of them. */
import { flagHelp, flagsOf, folderGlobHelp, type SourceCommand, type SourceFlag } from './flags.js';

export const CHECK_HELP = `Usage: knowledge-kit check [paths…] [--format text|json|github] [--include glob] [--exclude glob] [--follow-links]

Load and compile each folder (or .md file) as the app would, and print every problem:
  file:line:column  CODE  message
sorted by file and place, then one line: N files, M sections, K problems.

Options:
  --format text    the lines above (default)
  --format json    one JSON object: { files, sections, problems: [{ file, line, column, code, message, … }] }
  --format github  GitHub Actions annotations (::error file=…,line=…,col=…::…)
${folderGlobHelp(17)}
  --follow-links   follow symbolic links that stay inside the folder (default: none is followed;
                   each link, and each special file, is a REFUSED_FILE problem)
  -h, --help       this help

In the text format, control characters of file names and messages are escaped (\\n, \\x1b…), so
each problem is one line.

Paths default to the current folder. A progress line goes to stderr when it is a terminal and the
run takes over a second.
Exit codes: 0 no problems, 1 problems found, 2 usage or I/O error.`;

/** The usage lines and prose of a command that reads a folder or a database (its options come from the table). */
interface SourceHelp {
  /** The arguments of the folder form, before its options: `[dir]`, `<dir> <query>`. */
  readonly folder: string;
  /** The arguments of the database form after `--database <url>`: `--kb <id> <query>`. */
  readonly database: string;
  /** What the command does, and anything to say before the options. */
  readonly about: string;
  /** What follows the options: notes, then the exit codes. */
  readonly after: string;
}

/** A flag as the usage line and the options list name it: `--port n`, `--quiet, -q`. */
function flagLabel(flag: SourceFlag): string {
  return `--${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}${flag.short === undefined ? '' : `, -${flag.short}`}`;
}

/**
 * The `--help` of `command`: two usage lines (a folder, a database), its prose, and its options,
 * derived from the one option table (`flags.ts`).
 */
function sourceHelp(command: SourceCommand, help: SourceHelp): string {
  const flags = flagsOf(command);
  const optional = (source: 'folder' | 'database') =>
    flags
      .filter((flag) => flag.source !== (source === 'folder' ? 'database' : 'folder'))
      .filter(
        (flag) =>
          !(
            source === 'database' &&
            (flag.name === 'database' || help.database.includes(`--${flag.name} `))
          ),
      )
      .map((flag) => `[--${flag.name}${flag.value === undefined ? '' : ` ${flag.value}`}]`)
      .join(' ');
  const rows = [
    ...flags.map((flag) => [flagLabel(flag), flagHelp(flag, command)] as const),
    ['-h, --help', 'this help'] as const,
  ];
  const width = Math.max(...rows.map(([label]) => label.length)) + 2;
  const options = rows.flatMap(([label, text]) =>
    text.split('\n').map((line, i) => `  ${(i === 0 ? label : '').padEnd(width)}${line}`),
  );
  return [
    `Usage: knowledge-kit ${command}${help.folder === '' ? '' : ` ${help.folder}`} ${optional('folder')}`,
    `       knowledge-kit ${command} --database <url>${help.database === '' ? '' : ` ${help.database}`} ${optional('database')}`,
    '',
    help.about,
    '',
    'Options:',
    ...options,
    '',
    help.after,
  ].join('\n');
}

export const OUTLINE_HELP = sourceHelp('outline', {
  folder: '[dir]',
  database: '--kb <id>',
  about: `Print each document of the folder (default .), or of the knowledge base --kb of a database, with its
sections as a tree, then its headings indented by depth ("## Text  {#id}  size"; read one with
read --heading id). Sizes are in Unicode code points of what a read returns: "self" is the section's
own text, "subtree" the section with every section inside it, a heading's from its line to the next
heading of the same or a higher level.

Versions: with --version LABEL=DIR flags instead of a folder, --version LABEL reads that version (the
first when none is named); a version there is not is VERSION_NOT_FOUND, listing those there are.

  knowledge-kit outline --version 3.x=./docs --version 2.x=./docs-v2 --version 2.x`,
  after:
    'Exit codes: 0 success, 1 problems in the folder (printed as by check), 2 usage or I/O error.',
});

export const READ_HELP = sourceHelp('read', {
  folder: '<dir> <documentId>',
  database: '--kb <id> <documentId>',
  about: `Read a snapshot from the folder's catalog (or the knowledge base --kb of a database): the whole
document, the sections named (comma-separated or repeated) in "self" mode (their own text) or
"subtree" mode (with every section inside them), or one heading (--heading, an ID that outline
lists: from that heading to the next of the same or a higher level). The content goes to stdout and
the snapshot id to stderr.

Versions: with --version LABEL=DIR flags instead of a folder, --version LABEL reads that version (the
first when none is named); a version there is not is VERSION_NOT_FOUND, listing those there are.

  knowledge-kit read --version 3.x=./docs --version 2.x=./docs-v2 --version 2.x anchored-markdown`,
  after: `Exit codes: 0 success, 1 problems in the folder, 2 usage or I/O error (including an unknown document or
section, or a cursor that does not belong to this read).`,
});

export const SEARCH_HELP = sourceHelp('search', {
  folder: '<dir> <query>',
  database: '--kb <id> <query>',
  about: `Search the folder (or the knowledge base --kb of a database) as the search_files tool does for an
agent, so an author sees what an agent will find: each candidate's score, page path, file ID, best
sections and the excerpt that matched.

Versions: with --version LABEL=DIR flags instead of a folder, --version LABEL reads that version (the
first when none is named); a version there is not is VERSION_NOT_FOUND, listing those there are.

  knowledge-kit search --version 3.x=./docs --version 2.x=./docs-v2 --version 2.x "anchor lines"`,
  after:
    'Exit codes: 0 success (also when nothing is found), 1 problems in the folder, 2 usage or I/O error.',
});

export const SERVE_HELP = sourceHelp('serve', {
  folder: '[dir]',
  database: '',
  about: `Serve the folder (default .) as a read-only HTTP knowledge base: the routes of the HTTP layer under
<base-path>/knowledge-bases/<id>, and MCP over Streamable HTTP at <id>/mcp. With --database, serve
every knowledge base of the store there, each call reading its active revision. Prints the
knowledge-base URL, the curl commands an agent uses and the MCP URL with a client configuration, then
logs one line per request to stderr (\`METHOD path status N ms\`; under load that is one line per
request, so redirect or rotate it, or pass --quiet). Ctrl-C stops it. Files with problems do not stop
it: their problems go to stderr, the other files are served, and agents see those files as
"unavailable" (or "previous_available" under --watch); \`knowledge-kit check\` stays strict.

Versions: --version LABEL=DIR, once per version, serves the folders as versions of one knowledge base
(the default is the first; --default-version names another). A call names its version
(\`version=2.x\`) or reads the default; the root tree lists the versions; --watch watches each folder.

  knowledge-kit serve --version 3.x=./docs --version 2.x=./docs-v2 --default-version 3.x`,
  after: `--id, --watch, --include, --exclude, --follow-links and --link-root read a folder: they do not go with
--database.
--version LABEL=DIR and --default-version read folders too: they do not go with --database.

Exit codes: 0 stopped by a signal, 1 a folder that cannot be served at all (never one broken file),
2 usage or I/O error (such as a port in use).`,
});

export const MCP_HELP = sourceHelp('mcp', {
  folder: '[dir]',
  database: '--kb <id>',
  about: `Serve the folder (default .), or the knowledge base --kb of a database, to an MCP client on stdio
with six read-only tools: search_files, read_file, list_tree, get_file, read_related, expand_graph.
Stdout carries only the protocol; messages go to stderr. It stops when the client closes stdin. A
message line over 10 MB is skipped and answered with a JSON-RPC error (id null); at most 64 requests
are worked on at once, the rest wait (stdin is read no further while 1,024 wait). Files with problems
do not stop it: their problems go to stderr and the server's instructions, and agents see those
files as "unavailable" (or "previous_available").

Versions: --version LABEL=DIR, once per version, serves the folders as versions of one knowledge base
(the default is the first; --default-version names another); a tool call names its \`version\` or
reads the default.

  knowledge-kit mcp --version 3.x=./docs --version 2.x=./docs-v2 --default-version 3.x

An MCP client configuration (with an absolute path: the client starts the command in a folder of its own):
  { "mcpServers": { "knowledge": { "command": "knowledge-kit", "args": ["mcp", "/absolute/path/to/knowledge"] } } }`,
  after: `Exit codes: 0 the client disconnected, 1 a folder that cannot be served at all (never one broken
file), 2 usage or I/O error.`,
});

export const PUBLISH_HELP = `Usage: knowledge-kit publish <dir> --database <url> [--kb id] [--version label] [--default-version label] [--title t] [--revision r] [--keep n] [--schema s] [--include glob] [--exclude glob] [--link-root dir]

Check and load the folder as check does, then publish it to a PostgreSQL knowledge store
(knowledge-kit/postgres) as a new revision of the knowledge base, in one transaction, and make it
active: every reader sees the new revision on its next call. The store's schema is created or upgraded
first. Publishing the active revision's content again changes nothing ("unchanged"); the content
of an older kept revision makes that revision active again ("reactivated", naming the one it
replaces). Prints the revision.

A knowledge base has one or more versions (such as 2.x and 3.x of a product), each with its own
active revision: --version publishes into one (created when new), leaving the others as they are.
Without --version, the default version is published into (current for a new knowledge base). The
first version of a knowledge base is its default; --default-version makes another one the default.
  knowledge-kit publish ./docs-v3 --database pglite:./store --kb handbook --version 3.x
  knowledge-kit publish ./docs-v2 --database pglite:./store --kb handbook --version 2.x
  knowledge-kit versions --database pglite:./store --kb handbook

Options:
  --database url  postgres://user@host:5432/db (through the pg package) or pglite:<folder>
  --kb id         knowledge base ID (default the folder's name)
  --version label the version to publish into: 1 to 64 characters of A–Z a–z 0–9 . _ - (default
                  the knowledge base's default version, current for a new one)
  --default-version label
                  make this version the default (the one published, or one the knowledge base has)
  --title t       the knowledge base's title (default its ID, or unchanged)
  --revision r    the revision to publish as (default a digest of the content)
  --keep n        revisions kept, the new one included (default 2), besides each version's active
                  one; older ones are removed
  --schema s      the store's schema (default knowledge_kit)
${folderGlobHelp(16)}
  --link-root dir the folder a site-root link's \`/\` stands for (default the folder itself): the
                  stored relationships follow \`/learn/state\` and \`/guide/list.html\` links through it
  -h, --help      this help

Exit codes: 0 published (or unchanged, or reactivated), 1 problems in the folder (printed as by check; nothing
published), 2 usage, I/O or database error (nothing published).`;

/** `knowledge-kit versions --help`. */
export const VERSIONS_HELP = `Usage: knowledge-kit versions --database <url> --kb <id> [--default-version label] [--json] [--schema s]

List the versions of a knowledge base in a PostgreSQL knowledge store: each version's label, whether it
is the default (what a reader that names no version reads), its active revision and when that revision
was published. With --default-version, make that version the default first (readers see it on their
next call).
  knowledge-kit versions --database pglite:./store --kb handbook
  knowledge-kit versions --database pglite:./store --kb handbook --default-version 3.x

Options:
  --database url  postgres://user@host:5432/db (through the pg package) or pglite:<folder>
  --kb id         knowledge base ID (required)
  --default-version label
                  make this version (one the knowledge base has) the default
  --json          print [{ version, default, activeContentRevision, publishedAt }] as JSON
  --schema s      the store's schema (default knowledge_kit)
  -h, --help      this help

Exit codes: 0 listed, 2 usage or database error (an unknown knowledge base or version included).`;

/** `knowledge-kit unpublish --help`. */
export const UNPUBLISH_HELP = `Usage: knowledge-kit unpublish --database <url> --kb <id> --version <label> [--default-version label] [--keep n] [--schema s]

Remove one version of a knowledge base from a PostgreSQL knowledge store, in one transaction: its
readers answer VERSION_NOT_FOUND from their next call; the other versions are untouched. Never the
last version of a knowledge base (publish another one first); the default version only with
--default-version naming the version that becomes the default.
  knowledge-kit unpublish --database pglite:./store --kb handbook --version 2.x

Options:
  --database url  postgres://user@host:5432/db (through the pg package) or pglite:<folder>
  --kb id         knowledge base ID (required)
  --version label the version to remove (required)
  --default-version label
                  the version that becomes the default (required when removing the default)
  --keep n        revisions kept besides each version's active one (default 2)
  --schema s      the store's schema (default knowledge_kit)
  -h, --help      this help

Exit codes: 0 removed, 2 usage or database error (nothing removed).`;

export const EXPORT_HELP = `Usage: knowledge-kit export <dir> --out <folder> [--id id] [--title t] [--base-url url] [--include glob] [--exclude glob] [--link-root dir]
       knowledge-kit export --version LABEL=DIR [--version LABEL=DIR …] [--default-version LABEL] --out <folder> [options]

Check and load the folder as check does, then write it as a static bundle (docs/static.md): the pages
under pages/, index.md, _index/files.json (every page with its sections), a sharded search index under
_index/search/, _graph/ (each page's relationships), llms.txt, llms-full.txt and manifest.json. Any
static host or CDN serves it; createStaticSource (knowledge-kit/agent) answers the six tools from it.
The same folder gives the same bytes; into an earlier export, only changed files are written and files
no longer in the bundle are removed. Prints what it wrote.

Options:
  --out folder    the bundle's folder: new, empty, or an earlier export (required)
  --id id         knowledge base ID (default the folder's name)
  --title t       the title of llms.txt (default the ID)
  --base-url url  the URL the bundle will be served at, for absolute links in llms.txt (default
                  relative links)
${folderGlobHelp(16)}
  --link-root dir the folder a site-root link's \`/\` stands for (default the folder itself)
  --version LABEL=DIR
                  a version of the knowledge base and its folder (repeatable, instead of <dir>):
                  each is written as a bundle under versions/LABEL/, and versions.json names
                  them; createStaticSource reads the folder as a source with versions
  --default-version LABEL
                  the version a call that names none reads (default the first --version)
  -h, --help      this help

Exit codes: 0 exported, 1 problems in the folder (printed as by check; nothing written), 2 usage or
I/O error.`;

/** `knowledge-kit diff --help`. */
export const DIFF_HELP = `Usage: knowledge-kit diff --version LABEL=DIR --version LABEL=DIR [FROM TO] [--json] [--exit-code] [--include glob] [--exclude glob]
       knowledge-kit diff --database <url> --kb <id> FROM TO [--json] [--exit-code] [--schema s]

What changed between two versions of a knowledge base, each a folder: the pages added, removed and
changed (by path), and for each changed page its anchored sections and its headings added, removed
and changed (by content), and whether its front matter changed. What an author reviews before
publishing a version, and what an agent asks when a user upgrades. Each folder is checked and loaded as
check does. With --database, the two versions are versions of the knowledge base --kb of a PostgreSQL
knowledge store (each its active revision; see knowledge-kit versions).

  knowledge-kit diff --version 2.x=./docs-v2 --version 3.x=./docs 2.x 3.x

Options:
  --version LABEL=DIR  a version and its folder (twice); a label is 1 to 64 characters of
                       A-Z a-z 0-9 . _ -
  FROM TO              the labels to compare, older first (default: in the order given)
  --json               print the differences as one JSON object
  --exit-code          exit 1 when the versions differ (as \`git diff --exit-code\`)
  --database url       compare two versions of a knowledge store's knowledge base (postgres://… or
                       pglite:<folder>), with --kb id and FROM TO (required)
  --schema s           with --database: the store's schema (default knowledge_kit)
${folderGlobHelp(19)}
  -h, --help           this help

Exit codes: 0 compared (1 with --exit-code when they differ), 1 problems in a folder (printed as by
check), 2 usage or I/O error.`;
