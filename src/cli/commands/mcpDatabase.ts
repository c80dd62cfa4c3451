/**
 * `knowledge-kit mcp --database <url> --kb <id>`: the six tools as an MCP server on stdio over one
 * knowledge base of a PostgreSQL knowledge store (`createPostgresSource`), instead of a folder.
 */
import { BoundedStdioTransport } from '../stdio.js';
import { createKnowledgeMcpServer } from '../../mcp/index.js';
import { createPostgresSource, listKnowledgeBases } from '../../postgres/index.js';
import { integerOption, parseCommandArgs } from '../args.js';
import { MCP_HELP } from '../help.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { untilStopped } from '../live.js';
import { warmInBackground } from '../warmup.js';
import { packageVersion } from '../version.js';
import { openDatabase } from './openDatabase.js';

/** Whether `argv` asks `mcp` for a database rather than a folder. */
export function wantsDatabase(argv: readonly string[]): boolean {
  return argv.some((arg) => arg === '--database' || arg.startsWith('--database='));
}

/** Runs `mcp --database` until the client closes stdin (or a signal). */
export async function mcpDatabase(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'mcp',
    argv,
    {
      database: { type: 'string' },
      kb: { type: 'string' },
      schema: { type: 'string' },
      'max-chars': { type: 'string' },
    },
    0,
  );
  if (values['help'] === true) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.ok;
  }
  const url = values['database'] as string;
  const knowledgeBase = values['kb'];
  if (typeof knowledgeBase !== 'string' || positionals.length > 0)
    throw new CliExit(
      'knowledge-kit mcp: --database serves one knowledge base of the store: pass --kb <id> and no folder, such as `knowledge-kit mcp --database postgres://localhost/kb --kb handbook`.',
    );
  const schema = values['schema'] as string | undefined;
  const store = schema === undefined ? {} : { schema };
  const maxReadChars = integerOption(
    'mcp',
    'max-chars',
    values['max-chars'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const { db, close } = await openDatabase('mcp', url);
  try {
    let known;
    try {
      known = await listKnowledgeBases(db, store);
    } catch (error) {
      throw new CliExit(
        `knowledge-kit mcp: the store could not be read (${error instanceof Error ? error.message : String(error)}); publish to it first with \`knowledge-kit publish\`.`,
      );
    }
    const found = known.find((kb) => kb.id === knowledgeBase);
    if (found === undefined)
      throw new CliExit(
        `knowledge-kit mcp: the store has no knowledge base \`${knowledgeBase}\`${known.length === 0 ? '' : ` (it has ${known.map((kb) => `\`${kb.id}\``).join(', ')})`}; publish it first with \`knowledge-kit publish <folder> --database … --kb ${knowledgeBase}\`.`,
      );
    const source = createPostgresSource(db, {
      knowledgeBase,
      ...store,
      ...(maxReadChars === undefined ? {} : { maxReadChars }),
    });
    const server = createKnowledgeMcpServer(source, {
      name: 'knowledge-kit',
      version: packageVersion(),
    });
    // The bounded transport `mcp` on a folder uses (stdio.ts), not the SDK's StdioServerTransport.
    const transport = new BoundedStdioTransport({
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: io.stderr,
    });
    await server.connect(transport);
    const closed = new Promise<string>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve('stdin closed');
      };
    });
    io.stderr.write(
      `knowledge-kit mcp: serving \`${knowledgeBase}\` (${found.pages} ${found.pages === 1 ? 'page' : 'pages'}, the active revision on each call) from the database on stdio\n`,
    );
    // The search index is built now, in slices, while the other tools answer.
    const stopWarming = new AbortController();
    const warmed = warmInBackground('mcp', source, io, stopWarming.signal);
    await Promise.race([closed, untilStopped()]);
    stopWarming.abort();
    await server.close();
    await warmed;
    return EXIT.ok;
  } finally {
    await close();
  }
}
