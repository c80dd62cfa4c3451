/**
 * The files as MCP resources (in memory, SDK v2 client): every readable file listed once across pages
 * of the protocol cursor, with title, `text/markdown` and size; the template; `resources/read` equal
 * to `read_file`; errors a client can act on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import {
  createCatalogSource,
  KnowledgeToolError,
  type KnowledgeSource,
} from '../../src/agent/index.js';
import {
  createKnowledgeMcpServer,
  KNOWLEDGE_RESOURCE_TEMPLATE,
  knowledgeFileUri,
} from '../../src/mcp/index.js';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/server';
import { connectInMemory } from '../helpers/tools-mcp.js';

/** 130 pages in three folders and the root, some with non-ASCII and spaced names. */
function manyPages(edited = false): KnowledgeSource {
  const documents = [];
  const files: Record<string, { path: string }> = {};
  for (let i = 0; i < 130; i++) {
    const id = `p${i}`;
    const folder = ['a', 'b/c', 'déjà vu', ''][i % 4]!;
    documents.push(
      parseKnowledgeDocument({
        id,
        revision: '1',
        text: `# Page ${i} é 😀\n\nBody of page ${i}${edited && i === 0 ? ', edited' : ''}.\n`,
      }),
    );
    files[id] = { path: folder === '' ? `pages/${id}.md` : `pages/${folder}/${id}.md` };
  }
  return createCatalogSource(defineKnowledgeCatalog(documents), { id: 'many', files });
}

const source = manyPages();
let connection: Awaited<ReturnType<typeof connectInMemory>>;
beforeAll(async () => {
  connection = await connectInMemory(
    createKnowledgeMcpServer(source, { name: 'many', version: '1.0.0' }),
  );
});
afterAll(async () => connection.close());

/** One page of 60 paragraphs (about 6,500 code points). */
function longPage() {
  const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i} ${'word '.repeat(20)}`);
  const text = `# Long\n\n${paragraphs.join('\n\n')}\n`;
  const catalog = defineKnowledgeCatalog([
    parseKnowledgeDocument({ id: 'long', revision: '1', text }),
  ]);
  return { catalog, files: { long: { path: 'pages/long.md' } }, text };
}

/** An SDK v1 client (which pages resources/list by hand) connected to `server`. */
async function connectV1(server: ReturnType<typeof createKnowledgeMcpServer>) {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new ClientV1({ name: 'v1-cursors', version: '1.0.0' });
  await client.connect(clientSide as never);
  return {
    client,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe('resources/list cursors: signed, bound to the knowledge base and its revision', () => {
  /** The first page's cursor of a listing of `server`'s source. */
  async function firstCursor(options: { knowledgeBaseId?: string; cursorKey?: string } = {}) {
    const first = await connectV1(
      createKnowledgeMcpServer(source, { name: 'many', version: '1.0.0', ...options }),
    );
    const { nextCursor } = await first.client.listResources();
    await first.close();
    expect(typeof nextCursor).toBe('string');
    return nextCursor!;
  }

  it('a listing paged across a reload (a new revision) is STALE_CURSOR, naming the fix', async () => {
    const cursor = await firstCursor();
    let current = source;
    const reloading = new Proxy({} as KnowledgeSource, {
      get: (_, key) => {
        const value = (current as unknown as Record<string | symbol, unknown>)[key];
        return typeof value === 'function' ? value.bind(current) : value;
      },
    });
    const server = await connectV1(
      createKnowledgeMcpServer(reloading, { name: 'many', version: '1.0.0' }),
    );
    try {
      expect((await server.client.listResources({ cursor })).resources.length).toBeGreaterThan(0);
      current = manyPages(true);
      await expect(server.client.listResources({ cursor })).rejects.toThrow(
        /STALE_CURSOR: `resources\/list`: the knowledge base changed since this cursor was issued.*List again without a cursor/,
      );
    } finally {
      await server.close();
    }
  });

  it('a cursor of another knowledge base, or changed by hand, is INVALID_CURSOR; one signed with the same key outlives its server', async () => {
    const other = await firstCursor({ knowledgeBaseId: 'other' });
    const tampered = `${other.slice(0, 30)}${other[30] === 'A' ? 'B' : 'A'}${other.slice(31)}`;
    const plain = await connectV1(createKnowledgeMcpServer(source, { name: 'many', version: '1' }));
    await expect(plain.client.listResources({ cursor: other })).rejects.toThrow(
      /INVALID_CURSOR: `resources\/list`: the cursor belongs to another knowledge base/,
    );
    await expect(plain.client.listResources({ cursor: tampered })).rejects.toThrow(
      /INVALID_CURSOR: `resources\/list`: the cursor is not one this knowledge base issued/,
    );
    const keyed = await firstCursor({ cursorKey: 'a-key-of-at-least-16-bytes' });
    const restarted = await connectV1(
      createKnowledgeMcpServer(source, {
        name: 'many',
        version: '1.0.0',
        cursorKey: 'a-key-of-at-least-16-bytes',
      }),
    );
    try {
      expect(
        (await restarted.client.listResources({ cursor: keyed })).resources.length,
      ).toBeGreaterThan(0);
      await expect(plain.client.listResources({ cursor: keyed })).rejects.toThrow(/INVALID_CURSOR/);
    } finally {
      await restarted.close();
      await plain.close();
    }
  });
});

describe('knowledge files as MCP resources', () => {
  it('lists every readable file once, over pages of the protocol cursor, each with title, mimeType and size (SDK v1 client, which pages by hand)', async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createKnowledgeMcpServer(source, { name: 'many', version: '1.0.0' });
    await server.connect(serverSide);
    const client = new ClientV1({ name: 'v1', version: '1.0.0' });
    await client.connect(clientSide as never);
    const seen: {
      uri: string;
      name: string;
      title?: string | undefined;
      mimeType?: string | undefined;
      size?: number | undefined;
    }[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await client.listResources(cursor === undefined ? {} : { cursor });
      seen.push(...page.resources);
      cursor = page.nextCursor;
      pages++;
    } while (cursor !== undefined && pages < 20);
    expect(pages).toBeGreaterThan(1);
    const names = seen.map((resource) => resource.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('index.md');
    expect(names.filter((name) => name.startsWith('pages/'))).toHaveLength(130);
    // The pages first, then index.md and the graph files.
    const firstOther = names.findIndex((name) => !name.startsWith('pages/'));
    expect(firstOther).toBe(130);
    expect(names.slice(firstOther).every((n) => n === 'index.md' || n.startsWith('_graph/'))).toBe(
      true,
    );
    for (const resource of seen) {
      expect(resource.uri).toBe(knowledgeFileUri(resource.name));
      expect(resource.mimeType).toBe(
        resource.name.endsWith('.json') ? 'application/json' : 'text/markdown',
      );
      expect(typeof resource.title).toBe('string');
      const read = await source.readFile({ path: resource.name });
      expect(resource.size, resource.name).toBe(new TextEncoder().encode(read.content).length);
    }
    expect(seen.find((r) => r.name === 'pages/déjà vu/p2.md')?.uri).toBe(
      'knowledge:///pages/d%C3%A9j%C3%A0%20vu/p2.md',
    );
    expect(seen.find((r) => r.name === 'pages/a/p0.md')?.title).toBe('Page 0 é 😀');
    // The SDK v2 client walks the pages itself and gets the same list.
    const all = await connection.client.listResources();
    expect(all.resources.map((r) => r.uri)).toEqual(seen.map((r) => r.uri));
    await client.close();
    await server.close();
  });

  it('offers the template of file paths', async () => {
    const { resourceTemplates } = await connection.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({
        uriTemplate: KNOWLEDGE_RESOURCE_TEMPLATE,
        name: 'knowledge-file',
        mimeType: 'text/markdown',
      }),
    ]);
  });

  it('reads a page over the tools read limit whole, up to the resource limit (SDK v1 client)', async () => {
    const { catalog, files, text } = longPage();
    const long = createCatalogSource(catalog, { id: 'long', files, maxReadChars: 1000 });
    const v1 = new ClientV1({ name: 'v1-whole', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = createKnowledgeMcpServer(long, { name: 'long', version: '1.0.0' });
    await server.connect(serverSide);
    await v1.connect(clientSide);
    try {
      const [content] = (await v1.readResource({ uri: knowledgeFileUri('pages/long.md') }))
        .contents;
      expect((content as { text: string }).text).toBe(text.trimEnd());
      const meta = content!._meta as Record<string, unknown>;
      expect(meta['knowledge-kit/nextUri']).toBeUndefined();
      expect(meta['knowledge-kit/contentRange']).toBeUndefined();
      expect(meta['knowledge-kit/snapshotId']).toBe(
        (await long.readFile({ path: 'pages/long.md' })).file.snapshotId,
      );
    } finally {
      await v1.close();
      await server.close();
    }
  });

  it('beyond resourceMaxChars, ends the text with a visible note naming the missing code points and the URI of the rest; following it gives the whole text', async () => {
    const { catalog, files, text } = longPage();
    const long = createCatalogSource(catalog, { id: 'long', files, maxReadChars: 1000 });
    const cut = await connectInMemory(
      createKnowledgeMcpServer(long, { name: 'long', version: '1.0.0', resourceMaxChars: 2500 }),
    );
    try {
      let uri: string | undefined = knowledgeFileUri('pages/long.md');
      const parts: string[] = [];
      let reads = 0;
      while (uri !== undefined && reads++ < 20) {
        const [content] = (await cut.client.readResource({ uri })).contents;
        const meta = content!._meta as Record<string, unknown>;
        const body = (content as { text: string }).text;
        const next = meta['knowledge-kit/nextUri'] as string | undefined;
        if (next === undefined) {
          parts.push(body);
        } else {
          const range = meta['knowledge-kit/contentRange'] as {
            start: number;
            end: number;
            total: number;
          };
          const note = body.lastIndexOf('\n\n---\n\n> **Cut here.**');
          expect(note).toBeGreaterThan(0);
          expect(body.slice(note)).toContain(
            `code points ${range.end} to ${range.total} are missing. Read them at ${next}`,
          );
          expect(range.end - range.start).toBeGreaterThanOrEqual(2500);
          parts.push(body.slice(0, note));
        }
        uri = next;
      }
      expect(parts.length).toBeGreaterThan(1);
      expect(parts.join('')).toBe(text.trimEnd());
    } finally {
      await cut.close();
    }
    expect(() =>
      createKnowledgeMcpServer(long, { name: 'long', version: '1', resourceMaxChars: 0 }),
    ).toThrow(/registerKnowledgeResources: resourceMaxChars is a whole number/);
  });

  it('reads a page and index.md as read_file does, with snapshotId, fileId and version in _meta', async () => {
    for (const path of ['pages/déjà vu/p2.md', 'index.md']) {
      const uri = knowledgeFileUri(path);
      const { contents } = await connection.client.readResource({ uri });
      const read = await source.readFile({ path });
      expect(contents).toEqual([
        {
          uri,
          mimeType: 'text/markdown',
          text: read.content,
          _meta: {
            'knowledge-kit/fileId': read.file.fileId,
            'knowledge-kit/snapshotId': read.file.snapshotId,
            'knowledge-kit/revision': read.file.revision,
            'knowledge-kit/version': read.file.version,
          },
        },
      ]);
    }
  });

  it('answers a missing file, a foreign URI, a bad escape and a forged cursor with errors naming the fix', async () => {
    const { client } = connection;
    await expect(client.readResource({ uri: 'knowledge:///pages/none.md' })).rejects.toThrow(
      /NOT_FOUND/,
    );
    await expect(client.readResource({ uri: 'file:///etc/passwd' })).rejects.toThrow(
      /not a knowledge file\. Use knowledge:\/\/\//,
    );
    await expect(client.readResource({ uri: 'knowledge:///pages/%E0%A4%A.md' })).rejects.toThrow(
      /malformed %-escape/,
    );
    await expect(client.listResources({ cursor: 'forged' })).rejects.toThrow(/INVALID_CURSOR/);
  });

  it('can be switched off', async () => {
    const off = await connectInMemory(
      createKnowledgeMcpServer(source, { name: 'many', version: '1.0.0', resources: false }),
    );
    expect(off.client.getServerCapabilities()?.resources).toBeUndefined();
    expect(connection.client.getServerCapabilities()?.resources).toBeDefined();
    await off.close();
  });

  it('leaves out a file listed as unavailable (a broken file) and lists the others', async () => {
    const brokenPath = 'pages/a/p0.md';
    const broken: KnowledgeSource = {
      getFile: (...args) => source.getFile(...args),
      searchFiles: (...args) => source.searchFiles(...args),
      readRelated: (...args) => source.readRelated(...args),
      expandGraph: (...args) => source.expandGraph(...args),
      listTree: async (...args: Parameters<KnowledgeSource['listTree']>) => {
        const out = await source.listTree(...args);
        return {
          ...out,
          items: out.items.map((item) =>
            item.entryType === 'file' && item.path === brokenPath
              ? { ...item, contentAvailable: false }
              : item,
          ),
        };
      },
      readFile: async (...args: Parameters<KnowledgeSource['readFile']>) => {
        const [input] = args;
        if (input.path === brokenPath || input.fileId === 'p0')
          throw new KnowledgeToolError(
            'NOT_FOUND',
            `\`read_file\`: \`${brokenPath}\` cannot be read.`,
          );
        return source.readFile(...args);
      },
    };
    const off = await connectInMemory(
      createKnowledgeMcpServer(broken, { name: 'broken', version: '1.0.0' }),
    );
    const { resources } = await off.client.listResources();
    const names = resources.map((resource) => resource.name);
    expect(names).not.toContain(brokenPath);
    expect(names.filter((name) => name.startsWith('pages/'))).toHaveLength(129);
    await off.close();
  });
});
