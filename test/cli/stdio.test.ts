/**
 * The bounded stdio transport of `knowledge-kit mcp` on in-memory streams: at most `maxInFlight`
 * requests reach the server unanswered, a cancelled request frees its place, a line over the limit
 * is answered with a JSON-RPC error and the next line is still served, and a line that is not JSON-RPC
 * is answered too.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { BoundedStdioTransport } from '../../src/cli/stdio.js';

/** A transport on memory streams, its output lines, and what the server received. */
function harness(limits: { maxLineBytes: number; maxInFlight: number }) {
  const stdin = new PassThrough();
  const out: unknown[] = [];
  const err: string[] = [];
  const transport = new BoundedStdioTransport(
    {
      stdin,
      stdout: {
        write(text, callback) {
          for (const line of text.split('\n').filter((l) => l !== ''))
            out.push(JSON.parse(line) as unknown);
          setImmediate(callback);
          return true;
        },
      },
      stderr: { write: (text: string) => err.push(text) },
    },
    limits,
  );
  const received: JSONRPCMessage[] = [];
  transport.onmessage = (message) => received.push(message);
  return { stdin, out, err, transport, received };
}

const request = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('BoundedStdioTransport', () => {
  it('hands the server at most maxInFlight unanswered requests; each flushed answer lets one more in', async () => {
    const h = harness({ maxLineBytes: 1_000, maxInFlight: 3 });
    await h.transport.start();
    h.stdin.write(`${Array.from({ length: 10 }, (_, i) => request(i)).join('\n')}\n`);
    await tick();
    expect(h.received.map((m) => (m as { id: number }).id)).toEqual([0, 1, 2]);
    await h.transport.send({ jsonrpc: '2.0', id: 1, result: {} });
    await tick();
    expect(h.received).toHaveLength(4);
    // Answer the rest to drain the queue; request 0 stays unanswered.
    for (let id = 2; id < 10; id++) {
      await h.transport.send({ jsonrpc: '2.0', id, result: {} });
      await tick();
    }
    expect(h.received.map((m) => (m as { id: number }).id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    await h.transport.close();
  });

  it('the cancellation of a request the server has frees its place at once, ahead of queued requests', async () => {
    const h = harness({ maxLineBytes: 1_000, maxInFlight: 2 });
    await h.transport.start();
    h.stdin.write(`${request(0)}\n${request(1)}\n${request(2)}\n`);
    await tick();
    expect(h.received).toHaveLength(2);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 0 } };
    h.stdin.write(`${JSON.stringify(cancel)}\n`);
    await tick();
    expect(h.received).toEqual([
      { jsonrpc: '2.0', id: 0, method: 'ping' },
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      cancel,
      { jsonrpc: '2.0', id: 2, method: 'ping' },
    ]);
    await h.transport.close();
  });

  it('a line over maxLineBytes is skipped unread and answered with -32600, id null; the next line is served', async () => {
    const h = harness({ maxLineBytes: 100, maxInFlight: 3 });
    await h.transport.start();
    // Over the limit across several chunks, then a good line in the same chunk as its end.
    h.stdin.write('x'.repeat(60));
    h.stdin.write('x'.repeat(60));
    h.stdin.write(`xx\n${request(7)}\nnot json\n{"jsonrpc":"1.0"}\n`);
    await tick();
    await tick();
    expect(h.received).toEqual([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
    expect(h.out).toMatchObject([
      { jsonrpc: '2.0', id: null, error: { code: -32600 } },
      { jsonrpc: '2.0', id: null, error: { code: -32700 } },
      { jsonrpc: '2.0', id: null, error: { code: -32600 } },
    ]);
    expect((h.out[0] as { error: { message: string } }).error.message).toContain(
      'a message line of 122 bytes is over the limit of 100 bytes',
    );
    expect(h.err).toHaveLength(3);
    await h.transport.close();
  });
});
