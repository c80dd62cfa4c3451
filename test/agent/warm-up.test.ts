/**
 * Warming a source's search (issue 21 item 12): while `warm()` builds the index, the other tools answer
 * and a search is refused with `SEARCH_UNAVAILABLE` and `retryAfterSeconds` (the engine is not asked),
 * in the tools' and MCP's error shapes; once warm, searches answer. The default engine builds in slices
 * that yield to the event loop, counted against a clock that the test advances (a ratio, not a time).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createCatalogSource,
  createBm25fEngine,
  knowledgeTools,
  type KnowledgeToolDefinition,
  type SearchWarmProgress,
} from '../../src/agent/index.js';
import { MAX_WARM_RETRY_SECONDS, warmRetrySeconds } from '../../src/agent/source/warmGate.js';
import { SLICE_MS } from '../../src/agent/search/pace.js';
import { defineKnowledgeCatalog, parseKnowledgeDocument } from '../../src/index.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { slowWarmSource } from '../helpers/slowWarm.js';
import { connectInMemory, errorJsonOf } from '../helpers/tools-mcp.js';

const QUERY = { query: 'When does a cursor go stale?' };

/** Whether `promise` has settled, looked at after the microtasks queued now have run. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(
    () => (done = true),
    () => (done = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

describe('warm(): a search while the index is built', () => {
  it('reads answer, a search is refused with SEARCH_UNAVAILABLE and retryAfterSeconds without asking the engine; once warm, it answers', async () => {
    const slow = slowWarmSource();
    const heard: SearchWarmProgress[] = [];
    const warming = slow.source.warm!({ onProgress: (progress) => heard.push(progress) });
    expect((await slow.source.readFile({ path: 'index.md' })).content.length).toBeGreaterThan(0);
    expect((await slow.source.listTree({ parentPath: 'pages' })).items.length).toBeGreaterThan(0);
    expect(await settled(warming)).toBe(false);

    slow.progress({ done: 1, total: 4 });
    expect(heard).toEqual([{ done: 1, total: 4 }]);
    const refused = await expectKnowledgeError(
      slow.source.searchFiles(QUERY, { requestId: 'req-warming' }),
      {
        code: 'SEARCH_UNAVAILABLE',
        httpStatus: 503,
        requestId: 'req-warming',
        message: /index is being built \(25% done\).*retryAfterSeconds.*list_tree/,
      },
    );
    expect(Number.isInteger(refused.retryAfterSeconds)).toBe(true);
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(MAX_WARM_RETRY_SECONDS);
    expect(refused.toJSON().error.retryAfterSeconds).toBe(refused.retryAfterSeconds);
    expect(slow.searches).toHaveLength(0);

    slow.finish();
    await warming;
    expect((await slow.source.searchFiles(QUERY)).items.length).toBeGreaterThan(0);
    expect(slow.searches).toHaveLength(1);
    // Warm now: another warm() builds nothing.
    await slow.source.warm!();
    expect(slow.warms()).toBe(1);
  });

  it('concurrent warm() calls share one build; a late one hears the last progress at once', async () => {
    const slow = slowWarmSource();
    const first = slow.source.warm!();
    slow.progress({ done: 3, total: 10 });
    const heard: SearchWarmProgress[] = [];
    const second = slow.source.warm!({ onProgress: (progress) => heard.push(progress) });
    expect(heard).toEqual([{ done: 3, total: 10 }]);
    slow.finish();
    await Promise.all([first, second]);
    expect(slow.warms()).toBe(1);
  });

  it('the error keeps its shape in the tools (isError, structuredContent) and in MCP (text only, no structuredContent)', async () => {
    const slow = slowWarmSource();
    const warming = slow.source.warm!();
    const tools = knowledgeTools(slow.source);
    const search = tools.find((tool) => tool.name === 'search_files') as KnowledgeToolDefinition;
    const result = await search.execute(QUERY, { requestId: 'req-tool' });
    expect(result.isError).toBe(true);
    const body = result.structuredContent as { error: Record<string, unknown>; requestId: string };
    expect(Object.keys(body).sort()).toEqual(['error', 'requestId']);
    expect(Object.keys(body.error).sort()).toEqual([
      'code',
      'httpStatus',
      'message',
      'retryAfterSeconds',
    ]);
    expect(body).toMatchObject({
      error: { code: 'SEARCH_UNAVAILABLE', httpStatus: 503 },
      requestId: 'req-tool',
    });

    const connection = await connectInMemory(
      createKnowledgeMcpServer(slow.source, { name: 'kb', version: '1.0.0' }),
    );
    try {
      const reply = await connection.client.callTool({ name: 'search_files', arguments: QUERY });
      expect(reply.isError).toBe(true);
      expect(reply.structuredContent).toBeUndefined();
      expect(errorJsonOf(reply)).toMatchObject({
        error: {
          code: 'SEARCH_UNAVAILABLE',
          httpStatus: 503,
          retryAfterSeconds: expect.any(Number),
        },
      });
      const read = await connection.client.callTool({
        name: 'read_file',
        arguments: { path: 'index.md' },
      });
      expect(read.isError).toBe(false);
    } finally {
      await connection.close();
    }
    slow.finish();
    await warming;
  });

  it('a failed warm-up rejects warm() and leaves search to build the index itself', async () => {
    const slow = slowWarmSource();
    const warming = slow.source.warm!();
    slow.fail(new Error('disk on fire'));
    await expectKnowledgeError(warming, { code: 'SEARCH_UNAVAILABLE' });
    expect((await slow.source.searchFiles(QUERY)).items.length).toBeGreaterThan(0);
  });

  it('the build stops when its only caller stops waiting, not while another waits', async () => {
    const alone = slowWarmSource();
    const stop = new AbortController();
    const warming = alone.source.warm!({ signal: stop.signal });
    stop.abort();
    await expectKnowledgeError(warming, { code: 'TIMEOUT' });
    expect(alone.signal()?.aborted).toBe(true);

    const shared = slowWarmSource();
    const leaving = new AbortController();
    const staying = shared.source.warm!();
    const left = shared.source.warm!({ signal: leaving.signal });
    leaving.abort();
    await expectKnowledgeError(left, { code: 'TIMEOUT' });
    expect(shared.signal()?.aborted).toBe(false);
    shared.finish();
    await staying;
  });
});

describe('warmRetrySeconds', () => {
  it('scales the time so far by the work left, in whole seconds from 1 to the cap', () => {
    expect(warmRetrySeconds(3000, { done: 25, total: 100 })).toBe(9);
    expect(warmRetrySeconds(3000, { done: 100, total: 100 })).toBe(1);
    expect(warmRetrySeconds(0, undefined)).toBe(1);
    expect(warmRetrySeconds(4200, undefined)).toBe(5);
    expect(warmRetrySeconds(4200, { done: 0, total: 100 })).toBe(5);
    expect(warmRetrySeconds(1000, { done: 1, total: 10_000 })).toBe(MAX_WARM_RETRY_SECONDS);
  });
});

describe('the default engine builds in slices', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('yields to the event loop at least once per ~SLICE_MS entries: reads answer during the build', async () => {
    const documents = Array.from({ length: 60 }, (_, d) => {
      const sections = Array.from(
        { length: 10 },
        (_, s) =>
          `<!-- agent-section:s${s} -->\n## Part ${s}\n\nRenewal notice ${d} ${s} billing words.\n\n<!-- /agent-section:s${s} -->`,
      );
      return parseKnowledgeDocument({
        id: `doc-${d}`,
        revision: 'r1',
        text: `# Doc ${d}\n\n${sections.join('\n\n')}\n`,
      });
    });
    const source = createCatalogSource(defineKnowledgeCatalog(documents), {
      search: createBm25fEngine(),
    });
    // A clock that moves 1 ms each time it is read: the pacer reads it once per entry, so a slice is
    // about SLICE_MS entries, whatever the machine's speed.
    let clock = 0;
    vi.spyOn(Date, 'now').mockImplementation(() => ++clock);
    const entries = documents.length * 2 + documents.length * 11; // pages twice, then chunks
    let reads = 0;
    let building = true;
    const warming = source.warm!().finally(() => (building = false));
    while (building) {
      await new Promise((resolve) => setImmediate(resolve));
      if (!building) break;
      await source.readFile({ fileId: 'doc-1', sectionIds: ['s1'] });
      reads++;
    }
    await warming;
    // One slice per SLICE_MS clock reads (a few reads go elsewhere): at least half that many turns.
    expect(reads).toBeGreaterThanOrEqual(Math.floor(entries / SLICE_MS / 2));
    expect((await source.searchFiles({ query: 'renewal' })).items.length).toBeGreaterThan(0);
  });
});
