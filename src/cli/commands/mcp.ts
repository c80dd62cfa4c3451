/**
 * `knowledge-kit mcp [dir]` and `mcp --database <url> --kb <id>`: the six tools as an MCP server on
 * stdio, for agent clients, over a folder or one knowledge base of a knowledge store.
 */
import { MCP_HELP } from '../help.js';
import { createKnowledgeMcpServer, KNOWLEDGE_MCP_INSTRUCTIONS } from '../../mcp/index.js';
import { cursorKeyOf } from '../access.js';
import { integerOption } from '../args.js';
import { CliExit, EXIT, type CliIo } from '../io.js';
import { untilStopped } from '../live.js';
import { openSource, parseSourceArgs } from '../openSource.js';
import { count } from '../problems.js';
import { searchAfterWarmUp, warmInBackground } from '../warmup.js';
import { BoundedStdioTransport } from '../stdio.js';
import { packageVersion } from '../version.js';

/** Runs `mcp` until the client closes stdin (or a signal). */
export async function mcp(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseSourceArgs('mcp', argv);
  const { values, place } = args;
  if (args.help) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.ok;
  }
  const maxReadChars = integerOption(
    'mcp',
    'max-chars',
    values['max-chars'],
    1,
    Number.MAX_SAFE_INTEGER,
  );
  const text = values['text'];
  if (text !== undefined && text !== 'compact' && text !== 'json')
    throw new CliExit(
      `knowledge-kit mcp: --text is compact (the default, written for the model) or json (the structuredContent as text), not \`${String(text)}\`.`,
    );
  const watch = values['watch'] === true;
  const keyFile = values['cursor-key-file'];
  // A key that outlives the process: clients that restart the server between calls keep their cursors.
  const cursorKey = await cursorKeyOf(
    'mcp',
    typeof keyFile === 'string' ? keyFile : undefined,
    (line) => io.stderr.write(line),
  );
  const opened = await openSource(args, io, {
    live: { watch },
    served: {
      ...(cursorKey === undefined ? {} : { cursorKey }),
      ...(maxReadChars === undefined ? {} : { maxReadChars }),
    },
  });
  try {
    const { source, id, pages } = opened.single!;
    // Files with problems at start are named in the instructions too: the agent learns why a page it
    // expects is missing or older (list_tree and get_file give each file's status at any time).
    const { versions } = opened;
    const problems =
      versions === undefined
        ? opened.live?.problems()
        : versions
            .flatMap((version) => {
              const said = version.live?.problems();
              return said === undefined ? [] : [`version \`${version.label}\`: ${said}`];
            })
            .join(' ') || undefined;
    // A search waits for the index built below: a client that searches right after initialize gets
    // an answer, not SEARCH_UNAVAILABLE (warmup.ts).
    let indexReady: () => void = () => undefined;
    const indexed = new Promise<void>((resolve) => (indexReady = resolve));
    const server = createKnowledgeMcpServer(searchAfterWarmUp(source, indexed), {
      name: 'knowledge-kit',
      version: packageVersion(),
      ...(text === undefined ? {} : { text }),
      // Listing cursors bound to this knowledge base, signed with the tools' key.
      knowledgeBaseId: id,
      ...(cursorKey === undefined ? {} : { cursorKey }),
      ...(problems === undefined
        ? {}
        : {
            instructions: `${KNOWLEDGE_MCP_INSTRUCTIONS}\n\nAt start, ${problems} Such files show \`generatedOutputStatus\` \`previous_available\` (an older version is served) or \`unavailable\` (cannot be read) in \`list_tree\` and \`get_file\`; index.md lists the unavailable ones.`,
          }),
    });
    // Not the SDK's StdioServerTransport: see stdio.ts for what it did under load and to long lines.
    const transport = new BoundedStdioTransport({
      stdin: process.stdin,
      stdout: process.stdout,
      stderr: io.stderr,
    });
    await server.connect(transport);
    // The search index is built now, in slices, while the other tools answer (warmup.ts).
    const stopWarming = new AbortController();
    const warmed =
      versions === undefined
        ? warmInBackground('mcp', source, io, stopWarming.signal)
        : // Each version's index on its own, named in its lines.
          Promise.all(
            versions.map((version) =>
              warmInBackground(
                'mcp',
                version.source,
                io,
                stopWarming.signal,
                undefined,
                version.label,
              ),
            ),
          ).then(() => undefined);
    void warmed.then(indexReady);
    const closed = new Promise<string>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve('stdin closed');
      };
    });
    // Listening before the start line: a signal with no listener yet would kill the process.
    const stopped = untilStopped();
    io.stderr.write(
      place.kind === 'folder'
        ? `knowledge-kit mcp: serving ${count(opened.live!.documents(), 'document')} from \`${place.dir}\` on stdio${watch ? ', watching for changes' : ''}\n`
        : versions !== undefined
          ? `knowledge-kit mcp: serving \`${id}\` in ${count(versions.length, 'version')} on stdio${watch ? ', watching each folder for changes' : ''}: ${versions.map((version) => `\`${version.label}\`${version.default ? ' (default)' : ''}: ${count(version.live?.documents() ?? 0, 'document')} from \`${version.dir}\``).join('; ')}\n`
          : `knowledge-kit mcp: serving \`${id}\` (${count(pages ?? 0, 'page')}, the active revision on each call) from the database on stdio\n`,
    );
    await Promise.race([closed, stopped]);
    stopWarming.abort();
    await server.close();
    await warmed;
    return EXIT.ok;
  } finally {
    await opened.close();
  }
}
