/**
 * `knowledge-kit serve [dir]` and `serve --database <url>`: the read-only HTTP endpoint for agents that
 * run `curl`, over a folder (one knowledge base) or every knowledge base of a knowledge store, each
 * call reading its active revision. Both take the same flags (`flags.ts`) but those that read a folder.
 */
import { createKnowledgeHandler, createMemoryRateLimiter } from '../../http/index.js';
import { serveKnowledge } from '../../http/node/index.js';
import { bearerAccess, cursorKeyOf } from '../access.js';
import { integerOption } from '../args.js';
import { SERVE_HELP } from '../help.js';
import { isLoopback, usableOrigins } from '../hostUrls.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { untilStopped } from '../live.js';
import type { KnowledgeSource } from '../../agent/index.js';
import { knowledgeBaseId } from '../folder.js';
import type { LiveFolder } from '../live.js';
import type { OpenedVersion } from '../openVersions.js';
import {
  openSource,
  parseSourceArgs,
  type OpenedKnowledgeBase,
  type OpenedSource,
  type SourcePlace,
} from '../openSource.js';
import { count } from '../problems.js';
import { shellWord } from '../shellWord.js';
import { packageVersion } from '../version.js';
import { warmInBackground } from '../warmup.js';

/**
 * The lines that point an MCP client at a knowledge base's Streamable HTTP endpoint: its URL as an
 * `export`, and a client configuration (an `mcpServers` entry, the shape desktop and IDE clients read)
 * whose `Authorization` header names `${KNOWLEDGE_TOKEN}` rather than printing the token.
 */
export function mcpLines(name: string, url: string, secured: boolean): string[] {
  const server: Record<string, unknown> = { type: 'http', url };
  if (secured) server['headers'] = { Authorization: 'Bearer ${KNOWLEDGE_TOKEN}' };
  return [
    `export KNOWLEDGE_MCP_URL=${shellWord(url)}`,
    `MCP over Streamable HTTP at $KNOWLEDGE_MCP_URL; client configuration${secured ? ' (put the token where ${KNOWLEDGE_TOKEN} stands if your client does not expand environment variables)' : ''}:`,
    JSON.stringify({ mcpServers: { [name]: server } }),
  ];
}

/** `--base-path`, checked: `''` or a path of plain segments, without a trailing `/`. */
function basePathOption(value: unknown): string {
  const basePath = typeof value === 'string' ? value.replace(/\/+$/, '') : '';
  const segments = basePath.split('/').slice(1);
  if (
    basePath !== '' &&
    (!basePath.startsWith('/') ||
      segments.some(
        (segment) =>
          segment === '' ||
          segment === '.' ||
          segment === '..' ||
          !/^[\w.~!$&'()*+,;=:@%-]+$/.test(segment),
      ))
  ) {
    throw new CliExit(
      `knowledge-kit serve: --base-path must be a path such as \`/openapi/v2\`: starting with \`/\`, no empty, \`.\` or \`..\` segments, no spaces; not \`${basePath}\`.`,
    );
  }
  return basePath;
}

/**
 * The request log: one line per request to stderr, `METHOD path status N ms`, or with `--log json`
 * one object `{ time, method, path, status, ms }`; `--quiet` logs none (start-up and reload lines stay).
 */
function requestLog(
  values: Readonly<Record<string, unknown>>,
  io: CliIo,
): (handler: (request: Request) => Promise<Response>) => (request: Request) => Promise<Response> {
  const log = values['log'] ?? 'text';
  if (log !== 'text' && log !== 'json')
    throw new CliExit(`knowledge-kit serve: --log must be text or json, not \`${String(log)}\`.`);
  const quiet = values['quiet'] === true;
  if (quiet && values['log'] !== undefined)
    throw new CliExit(
      'knowledge-kit serve: --quiet logs no request, so it cannot go with --log; pick one.',
    );
  if (quiet) return (handler) => handler;
  return (handler) => async (request) => {
    const started = performance.now();
    const response = await handler(request);
    const url = new URL(request.url);
    const ms = Number((performance.now() - started).toFixed(1));
    const path = `${url.pathname}${url.search}`;
    io.stderr.write(
      log === 'json'
        ? `${JSON.stringify({ time: new Date().toISOString(), method: request.method, path, status: response.status, ms })}\n`
        : `${request.method} ${path} ${response.status} ${ms.toFixed(1)} ms\n`,
    );
    return response;
  };
}

/** Runs `serve` until SIGINT or SIGTERM. */
export async function serve(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseSourceArgs('serve', argv);
  const { values, place } = args;
  if (args.help) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.ok;
  }
  const port = integerOption('serve', 'port', values['port'], 0, 65_535) ?? 8787;
  const hostname = typeof values['host'] === 'string' ? values['host'] : '127.0.0.1';
  if (hostname === '')
    throw new CliExit('knowledge-kit serve: --host needs an address, such as 127.0.0.1 or ::1.');
  if (place.kind !== 'database') {
    const dir =
      place.kind === 'folder'
        ? place.dir
        : place.folders.find((version) => version.label === place.defaultVersion)!.dir;
    const id = knowledgeBaseId(dir, values['id']);
    // URLs drop `.` and `..` segments, so such an ID would print a URL that reaches another route.
    if (id === '' || id === '.' || id === '..')
      throw new CliExit(
        `knowledge-kit serve: --id must name the knowledge base, not \`${id}\`; such as \`--id handbook\`.`,
      );
  }
  const basePath = basePathOption(values['base-path']);
  const text = values['text'];
  if (text !== undefined && text !== 'compact' && text !== 'json')
    throw new CliExit(
      `knowledge-kit serve: --text is compact (the default, written for the model) or json (the structuredContent as text), not \`${String(text)}\`.`,
    );
  if (text !== undefined && values['no-mcp'] === true)
    throw new CliExit(
      'knowledge-kit serve: --text sets what MCP tool results hold, and --no-mcp serves no MCP; pick one.',
    );
  const logged = requestLog(values, io);
  const tokenFile = values['token-file'] as string | undefined;
  let opened: OpenedSource | undefined;
  const { access, secured } = await bearerAccess(
    'serve',
    tokenFile,
    values['access-file'] as string | undefined,
    async (allowed) => {
      const knowledgeBases: Record<string, { source: KnowledgeSource; title: string }> = {};
      for (const kb of await opened!.knowledgeBases())
        if (allowed === undefined || allowed.has(kb.id))
          knowledgeBases[kb.id] = { source: kb.source, title: kb.title };
      return { knowledgeBases };
    },
  );
  const keyFile = values['cursor-key-file'];
  const cursorKey = await cursorKeyOf(
    'serve',
    typeof keyFile === 'string' ? keyFile : undefined,
    (line) => io.stderr.write(line),
  );
  const maxReadChars = integerOption(
    'serve',
    'max-chars',
    values['max-chars'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const rateLimit = rateLimitOption(values['rate-limit']);
  const watch = values['watch'] === true;
  opened = await openSource(args, io, {
    live: { watch },
    served: {
      ...(cursorKey === undefined ? {} : { cursorKey }),
      ...(maxReadChars === undefined ? {} : { maxReadChars }),
    },
  });
  const source = opened;
  let handler;
  try {
    handler = createKnowledgeHandler({
      basePath,
      access,
      ...(secured ? { authenticateHeader: 'Bearer realm="knowledge-kit"' } : {}),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      // The listing cursors of `resources/list` are signed with the tools' key: both outlive a restart.
      mcp:
        values['no-mcp'] === true
          ? false
          : {
              version: packageVersion(),
              ...(text === undefined ? {} : { text }),
              ...(cursorKey === undefined ? {} : { cursorKey }),
            },
    });
  } catch (error) {
    await source.close();
    throw new CliExit(
      `knowledge-kit serve: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  let served;
  try {
    served = await serveKnowledge({
      handler: logged(handler),
      port,
      hostname,
      allowedHosts: stringList(values['allowed-host']),
      allowedOrigins: stringList(values['allowed-origin']),
    });
  } catch (error) {
    await source.close();
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${port} on ${hostname} is in use; pick another with --port`
        : (error as Error).message;
    throw new CliExit(`knowledge-kit serve: ${reason}.`);
  }
  // The search index of each knowledge base is built now, in slices, while reads are served.
  const known = await source.knowledgeBases();
  const stopWarming = new AbortController();
  const warmed = Promise.all(
    source.versions === undefined
      ? known.map((kb) =>
          warmInBackground(
            'serve',
            kb.source,
            io,
            stopWarming.signal,
            source.single === undefined ? kb.id : undefined,
          ),
        )
      : // Each version's index on its own, named in its lines.
        source.versions.map((version) =>
          warmInBackground(
            'serve',
            version.source,
            io,
            stopWarming.signal,
            undefined,
            version.label,
          ),
        ),
  );
  // `0.0.0.0` and `::` name no host: print the loopback URL, and the others it answers on.
  const [origin, ...others] = usableOrigins(served.url, hostname);
  if (!secured && !isLoopback(hostname))
    io.stderr.write(
      `knowledge-kit serve: warning: --host ${hostname} answers other machines, and without --token-file anyone who reaches this port can read the knowledge base. Add --token-file, or drop --host to serve 127.0.0.1 only.\n`,
    );
  const start: StartLines = {
    bases: `${origin!}${basePath}/knowledge-bases`,
    others: others.map((o) => `${o}${basePath}/knowledge-bases`),
    tokenFile,
    auth: secured ? ' -H "Authorization: Bearer $KNOWLEDGE_TOKEN"' : '',
    secured,
    mcp: values['no-mcp'] !== true,
  };
  const lines =
    source.single === undefined || source.live === undefined
      ? storeLines(start, known)
      : await folderLines(start, source.single, source.live, place, watch, source.versions);
  // Listening before the lines are printed: a caller may signal as soon as it reads the URL, and a
  // signal with no listener yet would kill the process instead of stopping it.
  const stopped = untilStopped();
  io.stdout.write(lines.join('\n'));
  const signal = await stopped;
  io.stderr.write(`knowledge-kit serve: ${signal}, stopping\n`);
  stopWarming.abort();
  await served.close();
  await warmed;
  await source.close();
  return EXIT.ok;
}

/** What the start lines of both forms say alike. */
interface StartLines {
  /** `{origin}{basePath}/knowledge-bases`. */
  readonly bases: string;
  /** The same on the other addresses it answers on. */
  readonly others: readonly string[];
  readonly tokenFile: string | undefined;
  /** The curl header argument, when requests need a token. */
  readonly auth: string;
  readonly secured: boolean;
  readonly mcp: boolean;
}

/** The start lines of a folder: its URL and the four curl commands an agent uses. */
async function folderLines(
  start: StartLines,
  kb: OpenedKnowledgeBase,
  live: LiveFolder,
  place: SourcePlace,
  watch: boolean,
  versions: readonly OpenedVersion[] | undefined,
): Promise<string[]> {
  const { auth } = start;
  const id = encodeURIComponent(kb.id);
  const dir = place.kind === 'folder' ? place.dir : '';
  const page = (await kb.source.listTree({ parentPath: 'pages' })).items.find(
    (item) => item.entryType === 'file',
  );
  const url = `${start.bases}/${id}`;
  const other = versions?.find((version) => !version.default);
  return [
    ...(versions === undefined
      ? [
          `Serving ${count(live.documents(), 'document')} from \`${dir}\` as knowledge base \`${kb.id}\`${watch ? ' (watching for changes)' : ''}.`,
        ]
      : versionLines(kb.id, versions, watch, other)),
    '',
    ...(start.others.length > 0
      ? [`Also answering at ${start.others.map((o) => `${o}/${id}`).join(', ')}.`, '']
      : []),
    `export KNOWLEDGE_BASE_URL=${shellWord(url)}`,
    ...tokenLine(start),
    `curl -sS -G "$KNOWLEDGE_BASE_URL/tree" --data-urlencode "limit=50"${auth}`,
    `curl -sS "$KNOWLEDGE_BASE_URL/files/${page === undefined ? '<fileId>' : encodeURIComponent(page.fileId)}/content"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/files/content" --data-urlencode "path=index.md"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/search" --data-urlencode "query=<your question>"${auth}`,
    ...(start.mcp ? ['', ...mcpLines(kb.id, `${url}/mcp`, start.secured)] : []),
    '',
  ];
}

/** The first lines of a folder served in versions: each version, its folder and its documents. */
function versionLines(
  id: string,
  versions: readonly OpenedVersion[],
  watch: boolean,
  other: OpenedVersion | undefined,
): string[] {
  const each = versions.map(
    (version) =>
      `\`${version.label}\`${version.default ? ' (default)' : ''}: ${count(version.live?.documents() ?? 0, 'document')} from \`${version.dir}\``,
  );
  return [
    `Serving knowledge base \`${id}\` in ${count(versions.length, 'version')}${watch ? ' (watching each folder for changes)' : ''}: ${each.join('; ')}.`,
    `A call reads the default version unless it names another${other === undefined ? '' : `, such as \`version=${other.label}\``}; \`$KNOWLEDGE_BASE_URL/tree\` lists the versions.`,
  ];
}

/** The start lines of a store: its knowledge bases now, their URLs, and three curl commands. */
function storeLines(start: StartLines, known: readonly OpenedKnowledgeBase[]): string[] {
  const { auth } = start;
  const first = known[0]?.id ?? '<id>';
  const url = `${start.bases}/${encodeURIComponent(first)}`;
  return [
    `Serving the knowledge bases of the database (${known.length} now: ${known.map((kb) => `\`${kb.id}\``).join(', ') || 'none yet'}); each call reads the active revision.`,
    '',
    ...(start.others.length > 0 ? [`Also answering at ${start.others.join(', ')}.`, ''] : []),
    `export KNOWLEDGE_BASES_URL=${shellWord(start.bases)}`,
    `export KNOWLEDGE_BASE_URL=${shellWord(url)}`,
    ...tokenLine(start),
    `curl -sS "$KNOWLEDGE_BASES_URL"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/tree" --data-urlencode "limit=50"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/search" --data-urlencode "query=<your question>"${auth}`,
    ...(start.mcp ? ['', ...mcpLines(first, `${url}/mcp`, start.secured)] : []),
    '',
  ];
}

/** `export KNOWLEDGE_TOKEN=…` from `--token-file`, as the curl commands read it. */
function tokenLine(start: StartLines): string[] {
  return start.tokenFile === undefined
    ? []
    : [`export KNOWLEDGE_TOKEN="$(cat ${shellWord(start.tokenFile)})"`];
}

/** `serve`'s default rate limit: calls per second per client address. */
export const DEFAULT_RATE_LIMIT = 20;

/**
 * `--rate-limit n`: a token bucket per client address, `n` calls per second in bursts of `4 × n`
 * (each member of an MCP batch is a call); `0` serves without a limit.
 */
function rateLimitOption(value: unknown) {
  const perSecond = integerOption('serve', 'rate-limit', value, 0, 1_000_000) ?? DEFAULT_RATE_LIMIT;
  if (perSecond === 0) return undefined;
  return createMemoryRateLimiter({ capacity: 4 * perSecond, refillPerSecond: perSecond });
}

/** A repeatable flag's values (none when absent). */
function stringList(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
