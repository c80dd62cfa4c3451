/** `knowledge-kit serve [dir]`: the read-only HTTP endpoint for a folder, for agents that run `curl`. */
import { SERVE_HELP } from '../help.js';
import { createHash, timingSafeEqual } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createKnowledgeHandler, type KnowledgeAccess } from '../../http/index.js';
import { serveKnowledge } from '../../http/node/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { knowledgeBaseId } from '../folder.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { openLiveFolder, untilStopped } from '../live.js';
import { count } from '../problems.js';
import { isLoopback, usableOrigins } from '../hostUrls.js';
import { warmInBackground } from '../warmup.js';

/** Reads the bearer token of `--token-file`. */
export async function readToken(path: string): Promise<string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CliExit(
      `knowledge-kit serve: token file \`${path}\` cannot be read (${(error as Error).message}).`,
    );
  }
  // Line feeds at the end are dropped, as \`$(cat file)\` in the printed commands drops them; anything
  // else the shell keeps (a CR of a CRLF ending, a BOM, spaces) would make those commands send another
  // token.
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  const token = text.slice(0, end);
  if (!/^[\x21-\x7e]+$/.test(token)) {
    throw new CliExit(
      `knowledge-kit serve: token file \`${path}\` must hold the token alone: visible ASCII characters (no spaces, no BOM), then only line feeds (LF; a CRLF ending is refused, as \`$(cat)\` would keep its CR).`,
    );
  }
  return token;
}

/** Whether `given` equals `token`, in time that does not depend on where they differ. */
export function sameToken(given: string, token: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), token);
}

/** `text` as one POSIX shell word: single quotes, each `'` written as `'\''`. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}

/** Runs `serve` until SIGINT or SIGTERM. */
export async function serve(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'serve',
    argv,
    {
      port: { type: 'string' },
      host: { type: 'string' },
      id: { type: 'string' },
      'base-path': { type: 'string' },
      'token-file': { type: 'string' },
      watch: { type: 'boolean' },
      'follow-links': { type: 'boolean' },
      ...LINK_ROOT_FLAG,
      quiet: { type: 'boolean', short: 'q' },
      log: { type: 'string' },
    },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.ok;
  }
  const dir = positionals[0] ?? '.';
  const port = integerOption('serve', 'port', values['port'], 0, 65_535) ?? 8787;
  const hostname = typeof values['host'] === 'string' ? values['host'] : '127.0.0.1';
  if (hostname === '')
    throw new CliExit('knowledge-kit serve: --host needs an address, such as 127.0.0.1 or ::1.');
  const id = knowledgeBaseId(dir, values['id']);
  // URLs drop `.` and `..` segments, so such an ID would print a URL that reaches another route.
  if (id === '' || id === '.' || id === '..')
    throw new CliExit(
      `knowledge-kit serve: --id must name the knowledge base, not \`${id}\`; such as \`--id handbook\`.`,
    );
  const basePath =
    typeof values['base-path'] === 'string' ? values['base-path'].replace(/\/+$/, '') : '';
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
  const log = values['log'] ?? 'text';
  if (log !== 'text' && log !== 'json')
    throw new CliExit(`knowledge-kit serve: --log must be text or json, not \`${String(log)}\`.`);
  const quiet = values['quiet'] === true;
  if (quiet && values['log'] !== undefined)
    throw new CliExit(
      'knowledge-kit serve: --quiet logs no request, so it cannot go with --log; pick one.',
    );
  const tokenFile = values['token-file'];
  const token =
    typeof tokenFile === 'string'
      ? createHash('sha256')
          .update(await readToken(tokenFile))
          .digest()
      : undefined;

  const live = await openLiveFolder('serve', dir, id, values['watch'] === true, io, {
    followLinks: values['follow-links'] === true,
    ...linkRootOption('serve', dir, values['link-root']),
  });
  const grant: KnowledgeAccess = Object.freeze({
    knowledgeBases: Object.freeze({ [id]: Object.freeze({ source: live.source, title: id }) }),
  });
  let handler;
  try {
    handler = createKnowledgeHandler({
      basePath,
      access: (request) => {
        if (token === undefined) return grant;
        const header = request.headers.get('authorization');
        // The scheme name is case-insensitive (RFC 9110 §11.1); the token is compared exactly.
        return header !== null &&
          header.slice(0, 7).toLowerCase() === 'bearer ' &&
          sameToken(header.slice(7), token)
          ? grant
          : null;
      },
      ...(token === undefined ? {} : { authenticateHeader: 'Bearer realm="knowledge-kit"' }),
    });
  } catch (error) {
    await live.close();
    throw new CliExit(
      `knowledge-kit serve: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  // One line per request to stderr: `METHOD path status N ms`, or with `--log json` one object
  // `{ time, method, path, status, ms }`; `--quiet` logs none (start-up and reload lines stay).
  const logged = async (request: Request): Promise<Response> => {
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

  let served;
  try {
    served = await serveKnowledge({ handler: quiet ? handler : logged, port, hostname });
  } catch (error) {
    await live.close();
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'EADDRINUSE'
        ? `port ${port} on ${hostname} is in use; pick another with --port`
        : (error as Error).message;
    throw new CliExit(`knowledge-kit serve: ${reason}.`);
  }
  // The search index is built now, in slices, while reads are served (warmup.ts).
  const stopWarming = new AbortController();
  const warmed = warmInBackground('serve', live.source, io, stopWarming.signal);
  // `0.0.0.0` and `::` name no host: print the loopback URL, and the others it answers on.
  const [origin, ...others] = usableOrigins(served.url, hostname);
  const url = `${origin!}${basePath}/knowledge-bases/${encodeURIComponent(id)}`;
  if (token === undefined && !isLoopback(hostname))
    io.stderr.write(
      `knowledge-kit serve: warning: --host ${hostname} answers other machines, and without --token-file anyone who reaches this port can read the knowledge base. Add --token-file, or drop --host to serve 127.0.0.1 only.\n`,
    );
  const auth = token === undefined ? '' : ' -H "Authorization: Bearer $KNOWLEDGE_TOKEN"';
  const page = (await live.source.listTree({ parentPath: 'pages' })).items.find(
    (item) => item.entryType === 'file',
  );
  const lines = [
    `Serving ${count(live.documents(), 'document')} from \`${dir}\` as knowledge base \`${id}\`${values['watch'] === true ? ' (watching for changes)' : ''}.`,
    '',
    ...(others.length > 0
      ? [
          `Also answering at ${others.map((o) => `${o}${basePath}/knowledge-bases/${encodeURIComponent(id)}`).join(', ')}.`,
          '',
        ]
      : []),
    `export KNOWLEDGE_BASE_URL=${shellWord(url)}`,
    ...(typeof tokenFile === 'string'
      ? [`export KNOWLEDGE_TOKEN="$(cat ${shellWord(tokenFile)})"`]
      : []),
    `curl -sS -G "$KNOWLEDGE_BASE_URL/tree" --data-urlencode "limit=50"${auth}`,
    `curl -sS "$KNOWLEDGE_BASE_URL/files/${page === undefined ? '<fileId>' : encodeURIComponent(page.fileId)}/content"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/files/content" --data-urlencode "path=index.md"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/search" --data-urlencode "query=<your question>"${auth}`,
    '',
  ];
  io.stdout.write(lines.join('\n'));
  const signal = await untilStopped();
  io.stderr.write(`knowledge-kit serve: ${signal}, stopping\n`);
  stopWarming.abort();
  await live.close();
  await served.close();
  await warmed;
  return EXIT.ok;
}
