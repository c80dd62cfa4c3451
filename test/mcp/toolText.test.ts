/**
 * The compact text of tool results over MCP (in memory, SDK v2 client, and the SDK v1 client for the
 * lean output schemas): every continuity field in the text, read_file's page as Markdown after a
 * short header, read-action URLs only when asked (HTTP), `text: 'json'` for the structuredContent as
 * text, errors as JSON; and a property: any ID or path is written so it reads back exactly.
 */
import fc from 'fast-check';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createCatalogSource, knowledgeTools } from '../../src/agent/index.js';
import {
  createKnowledgeMcpServer,
  leanOutputSchema,
  toCallToolResult,
  type KnowledgeMcpServerOptions,
} from '../../src/mcp/index.js';
import { plain, word } from '../../src/mcp/textValue.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { connectInMemory, continuity } from '../helpers/tools-mcp.js';

const LONG = Array.from({ length: 400 }, (_, i) => `Refund rule ${i} applies to the card.`).join(
  '\n\n',
);

function handbook() {
  const catalog = defineKnowledgeCatalog([
    parseKnowledgeDocument({
      id: 'refunds',
      revision: 'r1',
      text: '# Refunds\n\nRefunds go back to the original card within 5 days. See [shipping](shipping.md).\n',
    }),
    parseKnowledgeDocument({
      id: 'shipping',
      revision: 'r1',
      text: '# Shipping\n\nParcels ship in 2 days; a refund after a lost parcel goes to the card.\n',
    }),
    parseKnowledgeDocument({ id: 'long', revision: 'r1', text: `# Long\n\n${LONG}\n` }),
  ]);
  return createCatalogSource(catalog, {
    id: 'handbook',
    maxReadChars: 4000,
    files: {
      refunds: { path: 'pages/refunds.md', frontmatter: { tags: ['money'] } },
      shipping: { path: 'pages/shipping.md' },
      long: { path: 'pages/long.md' },
    },
  });
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function connect(options: Partial<KnowledgeMcpServerOptions> = {}) {
  const server = createKnowledgeMcpServer(handbook(), { name: 'kb', version: '1.0.0', ...options });
  const connection = await connectInMemory(server);
  close = connection.close;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await connection.client.callTool({ name, arguments: args });
    const content = result.content as { type: string; text: string }[];
    expect(content).toHaveLength(1);
    return { result, text: content[0]!.text, structured: result.structuredContent as never };
  };
  return { ...connection, call };
}

describe('the compact text of tool results (the default)', () => {
  it('search_files: each candidate with title, path, fileId, score, evidence, summary and excerpt; the statuses and nextCursor; no read-action URL', async () => {
    const { call } = await connect();
    const { text, structured } = await call('search_files', { query: 'refund card', limit: 1 });
    const output = structured as {
      items: { fileId: string; path: string; title: string }[];
      nextCursor: string;
      activeContentRevision: string;
    };
    const first = output.items[0]!;
    expect(text).toContain(`1. ${first.title}\n${first.path} fileId=${first.fileId} score=`);
    expect(text).toContain(`nextCursor: ${output.nextCursor}`);
    expect(text).toMatch(/^1 candidate \(searchStatus ok, searchMode hybrid, semantic /);
    expect(text).toContain(`activeContentRevision ${output.activeContentRevision}`);
    expect(text).not.toContain('/files/');
    expect(text).not.toContain('"fileId"');
  });

  it('read_file: a short header, a blank line, then the page Markdown exactly (no JSON string)', async () => {
    const { call } = await connect();
    const { text, structured } = await call('read_file', { path: 'pages/refunds.md' });
    const output = structured as { content: string; file: { snapshotId: string } };
    expect(text).toBe(
      [
        'path: pages/refunds.md',
        `snapshotId: ${output.file.snapshotId}`,
        `activeContentRevision: ${(structured as { file: { activeContentRevision: string } }).file.activeContentRevision} · version: current`,
        'frontmatter: {"tags":["money"]}',
        '',
        output.content,
      ].join('\n'),
    );
    expect(output.content.startsWith('# Refunds')).toBe(true);
  });

  it('read_file in parts: contentRange and nextCursor in the header, and the parts join to the whole text', async () => {
    const { call } = await connect();
    let cursor: string | null = null;
    let joined = '';
    let parts = 0;
    do {
      const { text, structured } = await call(
        'read_file',
        cursor === null ? { path: 'pages/long.md' } : { cursor },
      );
      const output = structured as {
        content: string;
        nextCursor: string | null;
        file: { contentRange: { start: number; end: number; total: number } };
      };
      const { start, end, total } = output.file.contentRange;
      expect(text).toContain(`contentRange: ${start}-${end} of ${total} code points`);
      if (output.nextCursor !== null) expect(text).toContain(`nextCursor: ${output.nextCursor}`);
      else expect(text).toContain(', the last part');
      expect(text.endsWith(`\n\n${output.content}`)).toBe(true);
      // The part message's sentences that the header says are not repeated.
      expect(text).not.toContain('Cite `file.snapshotId` with this range');
      joined += output.content;
      cursor = output.nextCursor;
      parts++;
    } while (cursor !== null);
    expect(parts).toBeGreaterThan(1);
    expect(joined).toBe(`# Long\n\n${LONG}`);
  });

  it('list_tree, get_file, read_related, expand_graph: every fileId and path of the output in the text', async () => {
    const { call } = await connect();
    for (const [name, args] of [
      ['list_tree', { parentPath: 'pages' }],
      ['get_file', { fileId: 'refunds' }],
      ['read_related', { fileId: 'refunds' }],
      ['expand_graph', { fileId: 'refunds', depth: 1 }],
    ] as const) {
      const { text, structured } = await call(name, args);
      const strings = continuity(structured, [
        'fileId',
        'path',
        'nextCursor',
        'snapshotId',
        'id',
        'viaFileId',
      ]);
      expect(strings.length, name).toBeGreaterThan(0);
      for (const value of strings) expect(text, `${name}: ${value}`).toContain(value);
      expect(text, name).not.toContain('/files/');
    }
  });

  it('headings: a candidate`s heading, get_file`s headings by depth, a heading read`s place, each with the ID read_file takes', async () => {
    const { call } = await connect();
    const search = await call('search_files', { query: 'refund card', limit: 1 });
    const item = (search.structured as { items: { heading: { id: string; text: string } }[] })
      .items[0]!;
    expect(item.heading).not.toBeNull();
    expect(search.text).toMatch(new RegExp(` heading=${item.heading.id}\n`));
    expect(search.text).not.toContain('"heading"');
    const file = await call('get_file', { fileId: 'refunds' });
    const headings = (
      file.structured as { headings: { id: string; text: string; chars: number }[] }
    ).headings;
    expect(headings).toHaveLength(1);
    expect(file.text).toContain(
      `headings (code points of each range), indented by depth:\n# ${headings[0]!.text} {#${headings[0]!.id}} ${headings[0]!.chars}`,
    );
    expect(file.text).not.toContain('"headings"');
    const read = await call('read_file', { fileId: 'refunds', heading: headings[0]!.id });
    const { heading } = (
      read.structured as {
        file: { heading: { id: string; text: string; depth: number; start: number; end: number } };
      }
    ).file;
    expect(read.text).toContain(
      `heading: ${heading.text} {#${heading.id}} · depth 1 · code points ${heading.start}-${heading.end} of the whole page`,
    );
    expect(read.text).not.toContain('"heading"');
  });

  it('keeps the read-action URLs with readActions: true (as the HTTP endpoint serves it)', async () => {
    const { call } = await connect({ readActions: true });
    const { text } = await call('search_files', { query: 'refund card', limit: 1 });
    expect(text).toMatch(/readActions: fileContentById \/files\/\w+\/content, /);
    const read = await call('read_file', { path: 'pages/refunds.md' });
    expect(read.text).toContain('readActions: fileContentById /files/refunds/content');
  });

  it("text: 'json' gives the structuredContent serialised, as before", async () => {
    const { call } = await connect({ text: 'json' });
    for (const [name, args] of [
      ['search_files', { query: 'refund' }],
      ['read_file', { path: 'pages/refunds.md' }],
    ] as const) {
      const { text, structured } = await call(name, args);
      expect(text).toBe(JSON.stringify(structured));
    }
  });

  it('an error stays its { error, requestId } JSON, without structuredContent', async () => {
    const { call } = await connect();
    const { result, text } = await call('get_file', { fileId: 'nope' });
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse(text)).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });

  it('refuses a bad text or readActions option with a TypeError naming the call and the values', () => {
    expect(() =>
      createKnowledgeMcpServer(handbook(), { name: 'kb', version: '1', text: 'yaml' as never }),
    ).toThrow(/registerKnowledgeTools: text is 'compact' \(the default\) or 'json', not "yaml"/);
    expect(() =>
      createKnowledgeMcpServer(handbook(), { name: 'kb', version: '1', readActions: 1 as never }),
    ).toThrow(/readActions is true or false/);
    expect(() =>
      toCallToolResult({ isError: false, structuredContent: {} }, { outputSchemas: 'x' as never }),
    ).toThrow(/toCallToolResult: outputSchemas is 'lean'/);
  });

  it('toCallToolResult without a tool name is the JSON text, as it was', () => {
    const reply = toCallToolResult({ isError: false, structuredContent: { a: 1 } });
    expect(reply.content).toEqual([{ type: 'text', text: '{"a":1}' }]);
  });
});

describe('the lean output schemas', () => {
  it('list no prose, and every real output still validates against them', async () => {
    const { client, call } = await connect();
    const { tools } = await client.listTools();
    const ajv = strictAjv();
    const full = knowledgeTools(handbook());
    for (const tool of tools) {
      const ours = full.find((definition) => definition.name === tool.name)!;
      expect(tool.outputSchema).toEqual(leanOutputSchema(ours.outputSchema));
      expect(JSON.stringify(tool.outputSchema)).not.toMatch(/"description":"/);
    }
    const calls = {
      search_files: { query: 'refund' },
      read_file: { path: 'pages/long.md' },
      list_tree: {},
      get_file: { fileId: 'refunds' },
      read_related: { fileId: 'refunds' },
      expand_graph: { fileId: 'refunds' },
    };
    for (const tool of tools) {
      const { structured } = await call(tool.name, calls[tool.name as keyof typeof calls]);
      expect(schemaErrors(ajv, tool.outputSchema as never, structured), tool.name).toBe('');
    }
  });

  it('writes a subschema used twice once, under $defs', () => {
    const item = { type: 'object', properties: { id: { type: 'string' }, n: { type: 'integer' } } };
    const lean = leanOutputSchema({
      type: 'object',
      description: 'prose',
      properties: { a: item, b: item },
      required: ['a'],
    });
    expect(lean).toEqual({
      type: 'object',
      properties: { a: { $ref: '#/$defs/a' }, b: { $ref: '#/$defs/a' } },
      $defs: { a: item },
    });
  });

  it('drops `required` and writes an enum of one value as its const', () => {
    expect(
      leanOutputSchema({
        type: 'object',
        properties: {
          restarted: { type: 'boolean', enum: [true], description: 'prose' },
          mode: { type: 'string', enum: ['a', 'b'] },
        },
        required: ['mode'],
      }),
    ).toEqual({
      type: 'object',
      properties: { restarted: { const: true }, mode: { type: 'string', enum: ['a', 'b'] } },
    });
  });

  it('the SDK v1 client (which checks structuredContent against outputSchema) accepts every answer', async () => {
    const server = createKnowledgeMcpServer(handbook(), { name: 'kb', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await server.connect(serverTransport);
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(clientTransport as never);
    close = async () => {
      await client.close();
      await server.close();
    };
    await client.listTools();
    for (const [name, args] of [
      ['search_files', { query: 'refund' }],
      ['read_file', { path: 'pages/long.md' }],
      ['list_tree', {}],
      ['get_file', { fileId: 'refunds' }],
      ['read_related', { fileId: 'refunds' }],
      ['expand_graph', { fileId: 'refunds' }],
    ] as const) {
      const reply = await client.callTool({ name, arguments: args });
      expect(reply.isError, `${name}: ${JSON.stringify(reply)}`).toBe(false);
    }
  });
});

describe('the written values (property)', () => {
  it('plain and word write any string so that it reads back exactly, on one line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 40 }), (text) => {
        for (const written of [plain(text), word(text)]) {
          expect(written.includes('\n')).toBe(false);
          const back = written.startsWith('"') ? (JSON.parse(written) as string) : written;
          expect(back).toBe(text);
        }
        const asWord = word(text);
        if (!asWord.startsWith('"')) expect(/[ ,=]/.test(asWord)).toBe(false);
      }),
      { seed: 20261207, numRuns: 500 },
    );
  });
});
