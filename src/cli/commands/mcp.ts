/** `knowledge-kit mcp [dir]`: the six tools as an MCP server on stdio, for agent clients. */
import { MCP_HELP } from '../help.js';
import { createKnowledgeMcpServer, KNOWLEDGE_MCP_INSTRUCTIONS } from '../../mcp/index.js';
import { parseCommandArgs } from '../args.js';
import { LINK_ROOT_FLAG, linkRootOption } from '../linkRoot.js';
import { knowledgeBaseId } from '../folder.js';
import { EXIT, type CliIo } from '../io.js';
import { openLiveFolder, untilStopped } from '../live.js';
import { count } from '../problems.js';
import { warmInBackground } from '../warmup.js';
import { BoundedStdioTransport } from '../stdio.js';
import { packageVersion } from '../version.js';

/** Runs `mcp` until the client closes stdin (or a signal). */
export async function mcp(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'mcp',
    argv,
    {
      id: { type: 'string' },
      watch: { type: 'boolean' },
      'follow-links': { type: 'boolean' },
      ...LINK_ROOT_FLAG,
    },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.ok;
  }
  const dir = positionals[0] ?? '.';
  const live = await openLiveFolder(
    'mcp',
    dir,
    knowledgeBaseId(dir, values['id']),
    values['watch'] === true,
    io,
    {
      followLinks: values['follow-links'] === true,
      ...linkRootOption('mcp', dir, values['link-root']),
    },
  );
  // Files with problems at start are named in the instructions too: the agent learns why a page it
  // expects is missing or older (list_tree and get_file give each file's status at any time).
  const problems = live.problems();
  const server = createKnowledgeMcpServer(live.source, {
    name: 'knowledge-kit',
    version: packageVersion(),
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
  const warmed = warmInBackground('mcp', live.source, io, stopWarming.signal);
  const closed = new Promise<string>((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      resolve('stdin closed');
    };
  });
  io.stderr.write(
    `knowledge-kit mcp: serving ${count(live.documents(), 'document')} from \`${dir}\` on stdio${values['watch'] === true ? ', watching for changes' : ''}\n`,
  );
  await Promise.race([closed, untilStopped()]);
  stopWarming.abort();
  await live.close();
  await server.close();
  await warmed;
  return EXIT.ok;
}
