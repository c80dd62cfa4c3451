/**
 * `knowledge-kit serve --database <url>`: the read-only HTTP endpoint over every knowledge base of a
 * PostgreSQL knowledge store, each read through `createPostgresSource` (the active revision on each
 * call). Without a token anyone who reaches the port reads every knowledge base; `--token-file` gives
 * one token for all of them; `--access-file` maps tokens to the knowledge bases each may read.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { KnowledgeSource } from '../../agent/index.js';
import { createKnowledgeHandler, type KnowledgeAccess } from '../../http/index.js';
import { serveKnowledge } from '../../http/node/index.js';
import { createPostgresSource, listKnowledgeBases } from '../../postgres/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { SERVE_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { untilStopped } from '../live.js';
import { openDatabase } from './openDatabase.js';
import { readToken, sameToken, shellWord } from './serve.js';
import { warmInBackground } from '../warmup.js';

/** Whether `argv` asks `serve` for a database rather than a folder. */
export function wantsDatabase(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--database' || arg.startsWith('--database='));
}

/** `--access-file`: a JSON object from token to the IDs of the knowledge bases it may read. */
async function readAccessFile(path: string): Promise<ReadonlyMap<Buffer, ReadonlySet<string>>> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new CliExit(
      `knowledge-kit serve: access file \`${path}\` cannot be read as JSON (${(error as Error).message}).`,
    );
  }
  const wrong = () =>
    new CliExit(
      `knowledge-kit serve: access file \`${path}\` must be a JSON object from token (visible ASCII) to an array of knowledge base IDs, such as {"s3cret-token": ["handbook", "faq"]}.`,
    );
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw wrong();
  const grants = new Map<Buffer, ReadonlySet<string>>();
  for (const [token, ids] of Object.entries(parsed)) {
    if (
      !/^[\x21-\x7e]+$/.test(token) ||
      !Array.isArray(ids) ||
      !ids.every((id) => typeof id === 'string')
    )
      throw wrong();
    grants.set(createHash('sha256').update(token).digest(), new Set(ids as string[]));
  }
  return grants;
}

/** Runs `serve --database` until SIGINT or SIGTERM. */
export async function serveDatabase(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'serve',
    argv,
    {
      database: { type: 'string' },
      port: { type: 'string' },
      host: { type: 'string' },
      'token-file': { type: 'string' },
      'access-file': { type: 'string' },
      schema: { type: 'string' },
    },
    0,
  );
  if (values['help'] === true) {
    io.stdout.write(`${SERVE_HELP}\n`);
    return EXIT.ok;
  }
  if (positionals.length > 0)
    throw new CliExit(
      'knowledge-kit serve: --database serves the knowledge bases of the store, not a folder: drop the folder argument.',
    );
  const port = integerOption('serve', 'port', values['port'], 0, 65_535) ?? 8787;
  const hostname = typeof values['host'] === 'string' ? values['host'] : '127.0.0.1';
  if (hostname === '')
    throw new CliExit('knowledge-kit serve: --host needs an address, such as 127.0.0.1 or ::1.');
  const tokenFile = values['token-file'];
  const accessFile = values['access-file'];
  if (typeof tokenFile === 'string' && typeof accessFile === 'string')
    throw new CliExit(
      'knowledge-kit serve: pass --token-file (one token for every knowledge base) or --access-file (tokens to knowledge bases), not both.',
    );
  const token =
    typeof tokenFile === 'string'
      ? createHash('sha256')
          .update(await readToken(tokenFile))
          .digest()
      : undefined;
  const grants = typeof accessFile === 'string' ? await readAccessFile(accessFile) : undefined;
  const schema = values['schema'] as string | undefined;
  const store = schema === undefined ? {} : { schema };

  const { db, close } = await openDatabase('serve', values['database'] as string);
  let known;
  try {
    known = await listKnowledgeBases(db, store);
  } catch (error) {
    await close();
    throw new CliExit(
      `knowledge-kit serve: the store could not be read (${error instanceof Error ? error.message : String(error)}); publish to it first with \`knowledge-kit publish\`.`,
    );
  }
  // Sources cost nothing to make and read the active revision on each call: one per knowledge base.
  const sources = new Map<string, KnowledgeSource>();
  const sourceOf = (id: string): KnowledgeSource => {
    let source = sources.get(id);
    if (source === undefined)
      sources.set(id, (source = createPostgresSource(db, { knowledgeBase: id, ...store })));
    return source;
  };
  /** The knowledge bases `allowed` admits, as they are in the store now (a publish adds one). */
  const grant = async (allowed: ReadonlySet<string> | undefined): Promise<KnowledgeAccess> => {
    const knowledgeBases: Record<string, { source: KnowledgeSource; title: string }> = {};
    for (const kb of await listKnowledgeBases(db, store))
      if (allowed === undefined || allowed.has(kb.id))
        knowledgeBases[kb.id] = { source: sourceOf(kb.id), title: kb.title };
    return { knowledgeBases };
  };
  const bearer = (request: Request): string | undefined => {
    const header = request.headers.get('authorization');
    // The scheme name is case-insensitive (RFC 9110 §11.1); the token is compared exactly.
    return header !== null && header.slice(0, 7).toLowerCase() === 'bearer '
      ? header.slice(7)
      : undefined;
  };
  const secured = token !== undefined || grants !== undefined;
  const handler = createKnowledgeHandler({
    access: async (request) => {
      if (!secured) return grant(undefined);
      const given = bearer(request);
      if (given === undefined) return null;
      if (token !== undefined) return sameToken(given, token) ? grant(undefined) : null;
      for (const [hash, ids] of grants!) if (sameToken(given, hash)) return grant(ids);
      return null;
    },
    ...(secured ? { authenticateHeader: 'Bearer realm="knowledge-kit"' } : {}),
  });
  const logged = async (request: Request): Promise<Response> => {
    const started = performance.now();
    const response = await handler(request);
    const url = new URL(request.url);
    io.stderr.write(
      `${request.method} ${url.pathname}${url.search} ${response.status} ${(performance.now() - started).toFixed(1)} ms\n`,
    );
    return response;
  };
  let served;
  try {
    served = await serveKnowledge({ handler: logged, port, hostname });
  } catch (error) {
    await close();
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliExit(
      `knowledge-kit serve: ${code === 'EADDRINUSE' ? `port ${port} on ${hostname} is in use; pick another with --port` : (error as Error).message}.`,
    );
  }
  // The search index of each knowledge base is built now, in slices, while reads are served.
  const stopWarming = new AbortController();
  const warmed = Promise.all(
    known.map((kb) => warmInBackground('serve', sourceOf(kb.id), io, stopWarming.signal, kb.id)),
  );
  const auth = secured ? ' -H "Authorization: Bearer $KNOWLEDGE_TOKEN"' : '';
  const first = known[0]?.id ?? '<id>';
  const lines = [
    `Serving the knowledge bases of the database (${known.length} now: ${known.map((kb) => `\`${kb.id}\``).join(', ') || 'none yet'}); each call reads the active revision.`,
    '',
    `export KNOWLEDGE_BASES_URL=${shellWord(`${served.url}/knowledge-bases`)}`,
    `export KNOWLEDGE_BASE_URL=${shellWord(`${served.url}/knowledge-bases/${encodeURIComponent(first)}`)}`,
    ...(typeof tokenFile === 'string'
      ? [`export KNOWLEDGE_TOKEN="$(cat ${shellWord(tokenFile)})"`]
      : []),
    `curl -sS "$KNOWLEDGE_BASES_URL"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/tree" --data-urlencode "limit=50"${auth}`,
    `curl -sS -G "$KNOWLEDGE_BASE_URL/search" --data-urlencode "query=<your question>"${auth}`,
    '',
  ];
  io.stdout.write(lines.join('\n'));
  const signal = await untilStopped();
  io.stderr.write(`knowledge-kit serve: ${signal}, stopping\n`);
  stopWarming.abort();
  await served.close();
  await warmed;
  await close();
  return EXIT.ok;
}
