/** The help text of each command, apart from the commands so that `--help` loads none of them. */

export const CHECK_HELP = `Usage: knowledge-kit check [paths…] [--format text|json|github] [--follow-links]

Load and compile each folder (or .md file) as the app would, and print every problem:
  file:line:column  CODE  message
sorted by file and place, then one line: N files, M sections, K problems.

Options:
  --format text    the lines above (default)
  --format json    one JSON object: { files, sections, problems: [{ file, line, column, code, message, … }] }
  --format github  GitHub Actions annotations (::error file=…,line=…,col=…::…)
  --follow-links   follow symbolic links that stay inside the folder (default: none is followed;
                   each link, and each special file, is a REFUSED_FILE problem)
  -h, --help       this help

In the text format, control characters of file names and messages are escaped (\\n, \\x1b…), so
each problem is one line.

Paths default to the current folder. A progress line goes to stderr when it is a terminal and the
run takes over a second.
Exit codes: 0 no problems, 1 problems found, 2 usage or I/O error.`;

export const OUTLINE_HELP = `Usage: knowledge-kit outline [dir] [--json] [--follow-links]

Print each document of the folder (default .) with its sections as a tree. Sizes are in Unicode code
points of what a read returns: "self" is the section's own text, "subtree" the section with every
section inside it.

Options:
  --json          one JSON object: { documents: [{ id, file, locale, revision, chars, sections: [{ id, self, subtree, sections }] }] }
  --follow-links  follow symbolic links that stay inside the folder (default: none is followed)
  -h, --help      this help

Exit codes: 0 success, 1 problems in the folder (printed as by check), 2 usage or I/O error.`;

export const READ_HELP = `Usage: knowledge-kit read <dir> <documentId> [--self ids | --subtree ids] [--max-chars n [--cursor c]] [--json] [--follow-links]

Read a snapshot from the folder's catalog: the whole document, or the sections named (comma-separated
or repeated) in "self" mode (their own text) or "subtree" mode (with every section inside them).
The content goes to stdout and the snapshot id to stderr.

Options:
  --self ids       read these sections' own text
  --subtree ids    read these sections with everything inside them
  --max-chars n    read in parts of at most n code points, as read_file gives them to an agent: the
                   first part, cut at a paragraph boundary; stderr says which part and prints the
                   command for the next one (with --cursor)
  --cursor c       with --max-chars: the next part, from the cursor the previous part printed
  --json           print the whole snapshot { id, documentId, selection, revision, locale, content }
                   as JSON (with --max-chars: the read_file output, with contentRange and nextCursor)
  --follow-links   follow symbolic links that stay inside the folder (default: none is followed)
  -h, --help       this help

Exit codes: 0 success, 1 problems in the folder, 2 usage or I/O error (including an unknown document or
section, or a cursor that does not belong to this read).`;

export const SEARCH_HELP = `Usage: knowledge-kit search <dir> <query> [--mode hybrid|file|graph] [--limit n] [--max-chars n] [--json] [--follow-links] [--link-root dir]

Search the folder as the search_files tool does for an agent, so an author sees what an agent will
find: each candidate's score, page path, file ID, best sections and the excerpt that matched.

Options:
  --mode m        hybrid (default), file or graph
  --limit n       candidates to show, 1 to 50 (default 10)
  --max-chars n   the read limit of each part, as serve and mcp take it; prints the read command
                  for the top candidate in parts of that size
  --json          print the whole search_files output as JSON
  --follow-links  follow symbolic links that stay inside the folder (default: none is followed)
  --link-root dir the folder a site-root link's \`/\` stands for (default the folder itself): the
                  graph mode follows \`/learn/state\` and \`/guide/list.html\` links through it
  -h, --help      this help

Exit codes: 0 success (also when nothing is found), 1 problems in the folder, 2 usage or I/O error.`;

export const SERVE_HELP = `Usage: knowledge-kit serve [dir] [--port 8787] [--host 127.0.0.1] [--id name] [--base-path p] [--token-file f] [--cursor-key-file f] [--max-chars n] [--watch] [--follow-links] [--link-root dir] [--quiet | --log text|json] [--no-mcp]
       knowledge-kit serve --database <url> [--port 8787] [--host 127.0.0.1] [--token-file f | --access-file f] [--cursor-key-file f] [--max-chars n] [--schema s] [--no-mcp]

Serve the folder (default .) as a read-only HTTP knowledge base: the routes of the HTTP layer under
<base-path>/knowledge-bases/<id>, and MCP over Streamable HTTP at <id>/mcp. Prints the knowledge-base
URL, the four curl commands an agent uses and the MCP URL with a client configuration, then logs one
line per request to stderr (\`METHOD path status N ms\`; under load that is one
line per request, so redirect or rotate it, or pass --quiet). Ctrl-C stops it. Files with problems do
not stop it: their problems go to stderr, the other files are served, and agents see those files as
"unavailable" (or "previous_available" under --watch); \`knowledge-kit check\` stays strict.

Options:
  --port n          port (default 8787; 0 picks a free one)
  --host h          address to listen on (default 127.0.0.1); one other machines reach, without
                    --token-file, prints a warning; 0.0.0.0 prints the loopback URL
  --id name         knowledge base ID (default the folder's name)
  --base-path p     path before /knowledge-bases (default none), such as /openapi/v2
  --token-file f    require "Authorization: Bearer <token>", the token being the file's content
                    (visible ASCII, then only line feeds); other requests get 401
  --max-chars n     the read limit of each read_file part, in code points (default 20000);
                    longer texts are read in parts (nextCursor)
  --cursor-key-file f  sign cursors with the file's secret (at least 16 bytes, then only line
                    feeds) instead of a random key per process: give replicas behind one URL
                    the same file so each accepts the others' cursors
  --watch           reload on change, file by file, without dropping requests: a good edit is
                    served at once; a broken file's problems are printed and its last good
                    version stays
  --follow-links    follow symbolic links that stay inside the folder (default: no link is
                    followed; links out of the folder and special files are always refused)
  --link-root dir   the folder a site-root link's \`/\` stands for (\`/learn/state\`,
                    \`/guide/list.html\`, \`/api/\`): the docs site's root; the folder itself
                    (default), a folder inside it, or one that holds it
  --quiet, -q       no request log (start-up, reload and error lines stay)
  --log text|json   request log format: text (default) or one JSON object a line
                    { time, method, path, status, ms }
  --database url    serve every knowledge base of a PostgreSQL knowledge store (postgres://… or
                    pglite:<folder>; see knowledge-kit publish) instead of a folder, each call
                    reading the active revision; with --token-file one token reads them all
  --access-file f   with --database: a JSON object from token to the knowledge base IDs it may
                    read, such as {"s3cret": ["handbook"]}; other requests get 401
  --schema s        with --database: the store's schema (default knowledge_kit)
  --no-mcp          serve no MCP endpoint (only the REST routes)
  -h, --help        this help

Exit codes: 0 stopped by a signal, 1 a folder that cannot be served at all (never one broken file),
2 usage or I/O error (such as a port in use).`;

export const MCP_HELP = `Usage: knowledge-kit mcp [dir] [--id name] [--max-chars n] [--watch] [--follow-links] [--link-root dir]
       knowledge-kit mcp --database <url> --kb <id> [--max-chars n] [--schema s]

Serve the folder (default .) to an MCP client on stdio with six read-only tools: search_files,
read_file, list_tree, get_file, read_related, expand_graph. Stdout carries only the protocol; messages
go to stderr. It stops when the client closes stdin. A message line over 10 MB is skipped and answered
with a JSON-RPC error (id null); at most 64 requests are worked on at once, the rest wait (stdin is
read no further while 1,024 wait). Files with problems do not stop it: their problems go to stderr and
the server's instructions, and agents see those files as "unavailable" (or "previous_available").

An MCP client configuration:
  { "mcpServers": { "knowledge": { "command": "npx", "args": ["knowledge-kit", "mcp", "./knowledge"] } } }

Options:
  --id name       knowledge base ID that cursors are bound to (default the folder's name)
  --max-chars n   the read limit of each read_file part, in code points (default 20000); longer
                  texts are read in parts (nextCursor)
  --watch         reload on change, file by file: a good edit is served at once; a broken file's
                  problems are printed to stderr and its last good version stays
  --follow-links  follow symbolic links that stay inside the folder (default: none is followed)
  --link-root dir the folder a site-root link's \`/\` stands for (\`/learn/state\`, \`/guide/list.html\`):
                  the docs site's root; the folder itself (default), a folder inside it, or one
                  that holds it
  --database url  serve the knowledge base --kb of a PostgreSQL knowledge store instead of a folder
                  (postgres://… or pglite:<folder>; see knowledge-kit publish); each call reads the
                  active revision, so a publish is served on the next call
  --kb id         with --database: the knowledge base
  --schema s      with --database: the store's schema (default knowledge_kit)
  -h, --help      this help

Exit codes: 0 the client disconnected, 1 a folder that cannot be served at all (never one broken
file), 2 usage or I/O error.`;

export const PUBLISH_HELP = `Usage: knowledge-kit publish <dir> --database <url> [--kb id] [--title t] [--revision r] [--keep n] [--schema s] [--link-root dir]

Check and load the folder as check does, then publish it to a PostgreSQL knowledge store
(knowledge-kit/postgres) as a new revision of the knowledge base, in one transaction, and make it
active: every reader sees the new revision on its next call. The store's schema is created or upgraded
first. Publishing the same content again changes nothing. Prints the revision.

Options:
  --database url  postgres://user@host:5432/db (through the pg package) or pglite:<folder>
  --kb id         knowledge base ID (default the folder's name)
  --title t       the knowledge base's title (default its ID, or unchanged)
  --revision r    the revision to publish as (default a digest of the content)
  --keep n        revisions kept, the new one included (default 2); older ones are removed
  --schema s      the store's schema (default knowledge_kit)
  --link-root dir the folder a site-root link's \`/\` stands for (default the folder itself): the
                  stored relationships follow \`/learn/state\` and \`/guide/list.html\` links through it
  -h, --help      this help

Exit codes: 0 published (or unchanged), 1 problems in the folder (printed as by check; nothing
published), 2 usage, I/O or database error (nothing published).`;

export const EXPORT_HELP = `Usage: knowledge-kit export <dir> --out <folder> [--id id] [--title t] [--base-url url] [--link-root dir]

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
  --link-root dir the folder a site-root link's \`/\` stands for (default the folder itself)
  -h, --help      this help

Exit codes: 0 exported, 1 problems in the folder (printed as by check; nothing written), 2 usage or
I/O error.`;
