/**
 * `mcp` on stdio: a search waits for the search index being built at start (bounded), so a client that
 * searches right after `initialize` gets an answer, with the wait in its `message` when it took long;
 * past the bound the source's `SEARCH_UNAVAILABLE` stands. (HTTP keeps answering 503 with
 * Retry-After: test/http/warm-up.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { isKnowledgeToolError, type SearchFilesOutput } from '../../src/agent/index.js';
import { createKnowledgeMcpServer } from '../../src/mcp/index.js';
import { SAID_WAIT_MS, searchAfterWarmUp, warmInBackground } from '../../src/cli/warmup.js';
import { slowWarmSource } from '../helpers/slowWarm.js';
import { connectInMemory } from '../helpers/tools-mcp.js';

const lines: string[] = [];
const io = { stdout: { write: () => true }, stderr: { write: (text: string) => lines.push(text) } };
const stops: AbortController[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop.abort();
  lines.length = 0;
});

/** A slow-warming source, its build started as `mcp` starts it, and the source `mcp` serves. */
function started(waitMs?: number) {
  const slow = slowWarmSource();
  const stop = new AbortController();
  stops.push(stop);
  const warmed = warmInBackground('mcp', slow.source, io, stop.signal);
  return { ...slow, served: searchAfterWarmUp(slow.source, warmed, waitMs) };
}

describe('searchAfterWarmUp (mcp on stdio)', () => {
  it('an MCP client that searches right after connecting waits for the index and gets candidates, the wait in message', async () => {
    const { served, finish } = started();
    const connection = await connectInMemory(
      createKnowledgeMcpServer(served, { name: 'kb', version: '1.0.0' }),
    );
    try {
      const searching = connection.client.callTool({
        name: 'search_files',
        arguments: { query: 'cursor stale' },
      });
      setTimeout(finish, SAID_WAIT_MS + 300);
      const reply = await searching;
      expect(reply.isError, JSON.stringify(reply)).toBe(false);
      const output = reply.structuredContent as unknown as SearchFilesOutput;
      expect(output.items.length).toBeGreaterThan(0);
      expect(output.message).toMatch(
        /This search waited 1\.\d s for the search index, which was being built when the server started\.$/,
      );
    } finally {
      await connection.close();
    }
  });

  it('once the index is ready, answers at once and leaves message as the source wrote it', async () => {
    const { served, finish, source } = started();
    finish();
    await served.warm?.({});
    const output = await served.searchFiles({ query: 'cursor stale' });
    expect(output).toEqual(await source.searchFiles({ query: 'cursor stale' }));
  });

  it('past the bound, the source answers as before: SEARCH_UNAVAILABLE with retryAfterSeconds', async () => {
    const { served } = started(100);
    let caught: unknown;
    try {
      await served.searchFiles({ query: 'cursor stale' });
    } catch (error) {
      caught = error;
    }
    expect(isKnowledgeToolError(caught) && caught.code).toBe('SEARCH_UNAVAILABLE');
  });

  it("stops waiting when the call's signal aborts", async () => {
    const { served } = started();
    const abort = new AbortController();
    const searching = served.searchFiles({ query: 'cursor stale' }, { signal: abort.signal });
    const began = performance.now();
    setTimeout(() => abort.abort(new Error('client went away')), 50);
    await expect(searching).rejects.toThrow();
    expect(performance.now() - began).toBeLessThan(5_000);
  });

  it('the other methods are the source’s own', async () => {
    const { served, source } = started();
    expect(await served.getFile({ fileId: 'agent-tools' })).toEqual(
      await source.getFile({ fileId: 'agent-tools' }),
    );
  });
});
