/**
 * Shutdown and listen streams: `serveKnowledge`'s `close()` cuts open MCP `subscriptions/listen`
 * streams (they never end by themselves) and every connection left after `closeTimeoutMs`; one client
 * cannot hold more than `limits.maxListenStreamsPerClient` listen streams of a knowledge base.
 */
import { describe, expect, it } from 'vitest';
import { serveKnowledge } from '../../src/http/node/index.js';
import { createKnowledgeHandler } from '../../src/http/createKnowledgeHandler.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { BASE_PATH, exampleHandler, exampleSource, READER } from '../helpers/exampleHandler.js';
import { listenInit, openListen } from '../helpers/listen.js';

const MCP_PATH = `${BASE_PATH}/knowledge-bases/example/mcp`;

/** How long `promise` takes to settle, in milliseconds. */
async function timed(promise: Promise<unknown>): Promise<number> {
  const started = performance.now();
  await promise;
  return performance.now() - started;
}

describe('serveKnowledge close()', () => {
  it('cuts open listen streams at once instead of waiting for them to end', async () => {
    const served = await serveKnowledge({ handler: exampleHandler() });
    const url = `${served.url}${MCP_PATH}`;
    const one = await openListen(url, READER, 1);
    const two = await openListen(url, READER, 2);
    expect(one.first).toContain('notifications/subscriptions/acknowledged');
    expect(two.response.headers.get('content-type')).toContain('text/event-stream');
    const ms = await timed(served.close());
    expect(ms).toBeLessThan(2_000);
    // The client sees its stream end.
    await expect(
      one.response
        .body!.getReader()
        .read()
        .then(
          () => 'ended',
          () => 'ended',
        ),
    ).resolves.toBe('ended');
  });

  it('cuts a request still in flight after closeTimeoutMs', async () => {
    const served = await serveKnowledge({
      handler: () => new Promise<Response>(() => undefined),
      closeTimeoutMs: 200,
    });
    const pending = fetch(`${served.url}/knowledge-bases`).catch(() => 'cut');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const ms = await timed(served.close());
    expect(ms).toBeGreaterThanOrEqual(150);
    expect(ms).toBeLessThan(2_000);
    await expect(pending).resolves.toBe('cut');
  });

  it('refuses a closeTimeoutMs that is not a whole number of milliseconds', async () => {
    await expectKnowledgeError(
      () => serveKnowledge({ handler: exampleHandler(), closeTimeoutMs: -1 }),
      { code: 'INVALID_INPUT', path: ['options', 'closeTimeoutMs'] },
    );
  });
});

describe('listen streams per client', () => {
  it('refuses one client a listen stream over its cap, in-band, and gives the slot back when one ends', async () => {
    const served = await serveKnowledge({
      handler: exampleHandler({ limits: { maxListenStreamsPerClient: 2 } }),
    });
    try {
      const url = `${served.url}${MCP_PATH}`;
      const first = new AbortController();
      await openListen(url, READER, 1, first.signal);
      await openListen(url, READER, 2);
      const third = await openListen(url, READER, 3);
      expect(third.response.status).toBe(200);
      const refused = JSON.parse(third.first) as {
        id: number;
        error: { code: number; message: string };
      };
      expect(refused.id).toBe(3);
      expect(refused.error.code).toBe(-32603);
      expect(refused.error.message).toContain('Subscription limit reached');
      first.abort();
      // Once the server has seen the hang-up, the slot is free again.
      let again = '';
      for (let i = 0; i < 50 && !again.includes('acknowledged'); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        again = (await openListen(url, READER, 4 + i)).first;
      }
      expect(again).toContain('notifications/subscriptions/acknowledged');
    } finally {
      await served.close();
    }
  });

  it('counts each client apart: another client still gets its streams', async () => {
    // Without a server adapter there is no address: the client is its credentials.
    const handler = createKnowledgeHandler({
      access: () => ({ knowledgeBases: { example: exampleSource() } }),
      limits: { maxListenStreamsPerClient: 1 },
    });
    const url = 'http://kb.test/knowledge-bases/example/mcp';
    const streams: Response[] = [];
    const a1 = await handler(new Request(url, listenInit({ authorization: 'Bearer a' }, 1)));
    streams.push(a1);
    expect(a1.headers.get('content-type')).toContain('text/event-stream');
    const a2 = await handler(new Request(url, listenInit({ authorization: 'Bearer a' }, 2)));
    expect(await a2.text()).toContain('Subscription limit reached');
    const b1 = await handler(new Request(url, listenInit({ authorization: 'Bearer b' }, 3)));
    streams.push(b1);
    expect(b1.headers.get('content-type')).toContain('text/event-stream');
    for (const stream of streams) await stream.body!.cancel();
  });

  it('refuses a limit that is not a positive whole number', () => {
    expect(() => exampleHandler({ limits: { maxListenStreamsPerClient: 0 } })).toThrow(
      /maxListenStreamsPerClient/,
    );
  });
});
