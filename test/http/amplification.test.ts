/**
 * Amplification and connection exhaustion: an MCP batch has at most `limits.maxBatchMembers` members
 * and an answer of at most `limits.maxBatchAnswerBytes`; `serveKnowledge` holds at most
 * `maxConnectionsPerAddress` connections from one client address.
 */
import { connect, type Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serveKnowledge } from '../../src/http/node/index.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import { BASE_PATH, exampleHandler, KB_URL, READER } from '../helpers/exampleHandler.js';

const toolsList = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' }));

const postBatch = (handler: (request: Request) => Promise<Response>, body: unknown) =>
  handler(
    new Request(`${KB_URL}/mcp`, {
      method: 'POST',
      headers: {
        ...READER,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify(body),
    }),
  );

describe('MCP batch caps', () => {
  it('a 100-member batch of tools/list is refused (400, -32600), not answered with megabytes', async () => {
    const response = await postBatch(exampleHandler(), toolsList(100));
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text.length).toBeLessThan(1_000);
    expect(JSON.parse(text)).toMatchObject({ error: { code: -32600 } });
    expect(text).toContain('batches of at most 32');
  });

  it('answers a batch within both caps whole', async () => {
    const response = await postBatch(exampleHandler(), toolsList(2));
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text.split('"tools":').length - 1).toBe(2);
  });

  it('drops an answer over maxBatchAnswerBytes and says to send smaller batches', async () => {
    const handler = exampleHandler({ limits: { maxBatchAnswerBytes: 40_000 } });
    const response = await postBatch(handler, toolsList(10));
    const text = await response.text();
    expect(response.status).toBe(400);
    expect(text).toContain('over 40000 bytes');
    // One tools/list alone is still answered.
    expect((await postBatch(handler, toolsList(1))).status).toBe(200);
  });

  it('refuses caps that are not positive whole numbers', () => {
    expect(() => exampleHandler({ limits: { maxBatchMembers: 0 } })).toThrow(/maxBatchMembers/);
    expect(() => exampleHandler({ limits: { maxBatchAnswerBytes: 1.5 } })).toThrow(
      /maxBatchAnswerBytes/,
    );
  });
});

describe('connections per client address', () => {
  it('closes a connection over maxConnectionsPerAddress as it arrives, and serves again once one closes', async () => {
    const served = await serveKnowledge({ handler: exampleHandler(), maxConnectionsPerAddress: 3 });
    const { port } = new URL(served.url);
    const sockets: Socket[] = [];
    const open = () =>
      new Promise<Socket>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => resolve(socket));
        socket.on('error', reject);
        sockets.push(socket);
      });
    try {
      // Three half-sent requests hold their connections.
      for (let i = 0; i < 3; i++) (await open()).write('GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      const fourth = await open();
      const closed = await new Promise<boolean>((resolve) => {
        fourth.once('close', () => resolve(true));
        setTimeout(() => resolve(false), 2_000);
      });
      expect(closed).toBe(true);
      sockets[0]!.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      const response = await fetch(`${served.url}${BASE_PATH}/knowledge-bases`, {
        headers: { ...READER, connection: 'close' },
      });
      expect(response.status).toBe(200);
    } finally {
      for (const socket of sockets) socket.destroy();
      await served.close();
    }
  });

  it('refuses a maxConnectionsPerAddress that is not a whole number from 1', async () => {
    await expectKnowledgeError(
      () => serveKnowledge({ handler: exampleHandler(), maxConnectionsPerAddress: 0 }),
      { code: 'INVALID_INPUT', path: ['options', 'maxConnectionsPerAddress'] },
    );
  });
});
