/** `knowledge-kit mcp [dir]`: the six tools as an MCP server on stdio, for agent clients. */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { createKnowledgeMcpServer } from '../../mcp/createKnowledgeMcpServer.js';
import { parseCommandArgs } from '../args.js';
import { knowledgeBaseId } from '../folder.js';
import { EXIT, type CliIo } from '../io.js';
import { openLiveFolder, untilStopped } from '../live.js';
import { count } from '../problems.js';
import { packageVersion } from '../version.js';

export const MCP_HELP = `Usage: knowledge-kit mcp [dir] [--id name] [--watch]

Serve the folder (default .) to an MCP client on stdio with six read-only tools: search_files,
read_file, list_tree, get_file, read_related, expand_graph. Stdout carries only the protocol; messages
go to stderr. It stops when the client closes stdin.

An MCP client configuration:
  { "mcpServers": { "knowledge": { "command": "npx", "args": ["knowledge-kit", "mcp", "./knowledge"] } } }

Options:
  --id name   knowledge base ID that cursors are bound to (default the folder's name)
  --watch     reload on change; a failed reload is printed to stderr and the last good version stays
  -h, --help  this help

Exit codes: 0 the client disconnected, 1 problems in the folder, 2 usage or I/O error.`;

/** Runs `mcp` until the client closes stdin (or a signal). */
export async function mcp(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs('mcp', argv, { id: { type: 'string' }, watch: { type: 'boolean' } }, 1);
  if (values['help'] === true) {
    io.stdout.write(`${MCP_HELP}\n`);
    return EXIT.ok;
  }
  const dir = positionals[0] ?? '.';
  const live = await openLiveFolder('mcp', dir, knowledgeBaseId(dir, values['id']), values['watch'] === true, io);
  const server = createKnowledgeMcpServer(live.source, { name: 'knowledge-kit', version: packageVersion() });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const closed = new Promise<string>((resolve) => {
    const previous = transport.onclose;
    transport.onclose = () => {
      previous?.();
      resolve('stdin closed');
    };
  });
  io.stderr.write(`knowledge-kit mcp: serving ${count(live.documents(), 'document')} from \`${dir}\` on stdio${values['watch'] === true ? ', watching for changes' : ''}\n`);
  await Promise.race([closed, untilStopped()]);
  await live.close();
  await server.close();
  return EXIT.ok;
}
