/**
 * DNS rebinding: `serveKnowledge` on loopback answers only requests whose `Host` names this machine
 * (or an allowed host) and whose `Origin`, when sent, is a loopback origin (or an allowed one); the
 * refusal is 403 in the tools' error shape, naming the option that allows it. Off loopback nothing is
 * checked. Real `node:http` servers, requests with the headers a rebound page's browser would send.
 */
import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { BASE_PATH, exampleHandler, READER } from '../helpers/exampleHandler.js';

const served: ServedKnowledge[] = [];
afterEach(async () => {
  await Promise.all(served.splice(0).map((s) => s.close()));
});

interface Answer {
  readonly status: number;
  readonly body: string;
}

/** A request to `served` with exactly `headers` (`Host` included), as `node:http` sends it. */
function send(
  server: ServedKnowledge,
  path: string,
  headers: Readonly<Record<string, string>>,
  method = 'GET',
  body?: string,
): Promise<Answer> {
  const url = new URL(server.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { hostname: url.hostname, port: url.port, path, method, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function start(options: Parameters<typeof serveKnowledge>[0]): Promise<ServedKnowledge> {
  const s = await serveKnowledge(options);
  served.push(s);
  return s;
}

const LIST = `${BASE_PATH}/knowledge-bases`;
const MCP = `${BASE_PATH}/knowledge-bases/example/mcp`;
const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'rebind', version: '1' },
  },
});
const MCP_HEADERS = {
  ...READER,
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
};

describe('serveKnowledge on loopback refuses a foreign Host or Origin', () => {
  it('answers Host 127.0.0.1, localhost and a loopback Origin', async () => {
    const s = await start({ handler: exampleHandler() });
    const port = new URL(s.url).port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`]) {
      const answer = await send(s, LIST, { ...READER, host });
      expect(answer.status, host).toBe(200);
    }
    const withOrigin = await send(s, LIST, {
      ...READER,
      host: `127.0.0.1:${port}`,
      origin: `http://localhost:${port}`,
    });
    expect(withOrigin.status).toBe(200);
  });

  it('refuses a rebound Host with 403 in the error shape, on REST and MCP', async () => {
    const s = await start({ handler: exampleHandler() });
    const port = new URL(s.url).port;
    const rest = await send(s, LIST, { ...READER, host: `evil.example:${port}` });
    expect(rest.status).toBe(403);
    const body = JSON.parse(rest.body) as {
      error: { code: string; message: string; httpStatus: number };
      requestId: string;
    };
    expect(body.error.code).toBe('UNAUTHENTICATED');
    expect(body.error.httpStatus).toBe(403);
    expect(body.error.message).toContain('--allowed-host');
    expect(body.requestId).not.toBe('');
    const mcp = await send(
      s,
      MCP,
      { ...MCP_HEADERS, host: `evil.example:${port}` },
      'POST',
      INITIALIZE,
    );
    expect(mcp.status).toBe(403);
    expect(mcp.body).not.toContain('serverInfo');
  });

  it('refuses a foreign Origin even with a loopback Host, on REST and MCP', async () => {
    const s = await start({ handler: exampleHandler() });
    const host = new URL(s.url).host;
    for (const origin of ['http://evil.example', 'null', 'file://']) {
      const rest = await send(s, LIST, { ...READER, host, origin });
      expect(rest.status, origin).toBe(403);
      expect(rest.body).toContain('--allowed-origin');
    }
    const mcp = await send(
      s,
      MCP,
      { ...MCP_HEADERS, host, origin: 'http://evil.example' },
      'POST',
      INITIALIZE,
    );
    expect(mcp.status).toBe(403);
    // The same request from this machine is served.
    const ok = await send(s, MCP, { ...MCP_HEADERS, host }, 'POST', INITIALIZE);
    expect(ok.status).toBe(200);
    expect(ok.body).toContain('serverInfo');
  });

  it('answers what allowedHosts and allowedOrigins allow', async () => {
    const s = await start({
      handler: exampleHandler(),
      allowedHosts: ['kb.internal'],
      allowedOrigins: ['https://app.example'],
    });
    const answer = await send(s, LIST, {
      ...READER,
      host: 'KB.internal:8080',
      origin: 'https://app.example',
    });
    expect(answer.status).toBe(200);
    const other = await send(s, LIST, {
      ...READER,
      host: 'kb.internal',
      origin: 'https://other.example',
    });
    expect(other.status).toBe(403);
  });

  it('checks nothing off loopback', async () => {
    const s = await start({ handler: exampleHandler(), hostname: '0.0.0.0' });
    const port = new URL(s.url).port;
    const answer = await send(s, LIST, {
      ...READER,
      host: `evil.example:${port}`,
      origin: 'http://evil.example',
    });
    expect(answer.status).toBe(200);
  });

  it('rejects allowedHosts that is not a list of names', async () => {
    await expect(serveKnowledge({ handler: exampleHandler(), allowedHosts: [''] })).rejects.toThrow(
      /allowedHosts/,
    );
  });
});
