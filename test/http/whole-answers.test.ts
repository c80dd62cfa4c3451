/**
 * Whole answers: the handler's JSON, Markdown, 304 and error answers are marked as having their whole
 * body at once, so `serveKnowledge` knows they are no event stream without reading their headers
 * (reading them makes `@hono/node-server` turn its plain header record into a `Headers` object and
 * copy it back, a tenth of a small read's server time). On the wire, such an answer's header names
 * keep the handler's spelling; an answer the handler did not make is still checked by its headers.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { isWholeAnswer } from '../../src/http/internals.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { errorResponse, jsonResponse, wholeResponse } from '../../src/http/respond.js';
import { BASE_PATH, exampleHandler, READER } from '../helpers/exampleHandler.js';

const served: ServedKnowledge[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

/** A GET to `server`: its status and the header names exactly as they came over the wire. */
function rawHeaderNames(
  server: ServedKnowledge,
  path: string,
  headers: Readonly<Record<string, string>>,
): Promise<{ status: number; names: string[]; body: string }> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname: url.hostname, port: url.port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          names: res.rawHeaders.filter((_, i) => i % 2 === 0),
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('isWholeAnswer', () => {
  it('is true for the answers the handler makes, false for any other', () => {
    expect(isWholeAnswer(jsonResponse(200, '{}', {}))).toBe(true);
    expect(isWholeAnswer(wholeResponse(null, 304, {}))).toBe(true);
    expect(isWholeAnswer(wholeResponse('# Title', 200, {}))).toBe(true);
    expect(
      isWholeAnswer(errorResponse({ code: 'NOT_FOUND', message: 'No such page.', requestId: 'r' })),
    ).toBe(true);
    expect(isWholeAnswer(new Response('{}'))).toBe(false);
    expect(
      isWholeAnswer(
        new Response('data: 1\n\n', { headers: { 'content-type': 'text/event-stream' } }),
      ),
    ).toBe(false);
  });
});

describe('serveKnowledge writes whole answers without reading their headers', () => {
  it('a 200 and a 404 keep the header names as the handler spells them', async () => {
    const s = await serveKnowledge({ handler: exampleHandler() });
    served.push(s);
    for (const path of [`${BASE_PATH}/knowledge-bases`, `${BASE_PATH}/knowledge-bases/nope/tree`]) {
      const answer = await rawHeaderNames(s, path, { ...READER, 'x-request-id': 'whole-1' });
      expect(answer.status).toBe(path.includes('nope') ? 404 : 200);
      expect(answer.names).toEqual(
        expect.arrayContaining(['X-Request-Id', 'Cache-Control', 'Content-Type']),
      );
      expect(JSON.parse(answer.body)).toBeTypeOf('object');
    }
  });

  it('an answer the handler did not make is still read for its type (an event stream is cut by close)', async () => {
    const s = await serveKnowledge({
      handler: async () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(new TextEncoder().encode('data: open\n\n'));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
    });
    const url = new URL(s.url);
    const ended = new Promise<string>((resolve, reject) => {
      const req = httpRequest({ hostname: url.hostname, port: url.port, path: '/' }, (res) => {
        res.once('data', () => void s.close());
        res.on('close', () => resolve('closed'));
        res.on('error', () => resolve('closed'));
      });
      req.on('error', reject);
      req.end();
    });
    // close() cuts event streams at once, not after closeTimeoutMs (5 s).
    const started = Date.now();
    expect(await ended).toBe('closed');
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
