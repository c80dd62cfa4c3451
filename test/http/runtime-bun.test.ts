/**
 * The handler unchanged on another Fetch runtime: Bun (the `bun` dev dependency) runs
 * test/http/fixtures/bun-server.ts, which imports the handler from the TypeScript sources and serves it
 * with `Bun.serve`. The seed's commands and a client round trip against it give the in-process
 * answers, and the same status, headers and bytes as the Node server (`serveKnowledge`).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReadFileOutput, SearchFilesOutput } from '../../src/agent/index.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import type { KnowledgeClient } from '../../src/http/types.js';
import { expectKnowledgeError } from '../helpers/knowledgeError.js';
import {
  EXAMPLE_CONTEXT,
  hasCurl,
  QUESTIONS,
  runCurl,
  runFetch,
  SEED_COMMANDS,
  wire,
} from '../helpers/http-e2e-seed.js';
import {
  BASE_PATH,
  exampleHandler,
  exampleSource,
  OTHER,
  READER,
} from '../helpers/exampleHandler.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BUN = fileURLToPath(new URL('../../node_modules/.bin/bun', import.meta.url));
const FIXTURE = 'test/http/fixtures/bun-server.ts';
/**
 * Bun's own limit on request headers is 16 KiB, so a 2,000-character Chinese query (about 18,000
 * encoded characters, within the handler's limits) would get Bun's 431 before the handler runs. Like
 * `serveKnowledge` on Node, the server is started with 64 KiB.
 */
const BUN_ARGS = ['--max-http-header-size=65536', 'run', FIXTURE];

/** Why Bun cannot run here, or `null` when it can. */
function bunUnavailable(): string | null {
  if (!existsSync(BUN))
    return `node_modules/.bin/bun is missing (the \`bun\` dev dependency is not installed)`;
  try {
    execFileSync(BUN, ['--version'], { timeout: 30_000, stdio: ['ignore', 'pipe', 'pipe'] });
    return null;
  } catch (error) {
    return `node_modules/.bin/bun does not run on this machine: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
  }
}

const UNAVAILABLE = bunUnavailable();
const CURL = await hasCurl();
if (UNAVAILABLE !== null) console.warn(`runtime-bun.test.ts skipped: ${UNAVAILABLE}`);

/** Start the fixture; resolves with its first stdout line (JSON) once it listens. */
function startBun(): Promise<{ child: ChildProcess; url: string; version: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(BUN, BUN_ARGS, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const fail = (why: string): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    const timer = setTimeout(() => fail('bun did not print its URL within 30 s'), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out.split('\n')[0];
      if (!out.includes('\n') || line === undefined) return;
      clearTimeout(timer);
      try {
        const { url, version } = JSON.parse(line) as { url: string; version: string };
        resolve({ child, url, version });
      } catch {
        fail('bun printed something that is not the fixture line');
      }
    });
    child.once('error', (error) => fail(`bun could not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`bun exited early (code ${code}, signal ${signal})`));
  });
}

describe.skipIf(UNAVAILABLE !== null)(
  `the handler on Bun (${UNAVAILABLE ?? `bun ${BUN_ARGS.join(' ')}`})`,
  () => {
    let bun: { child: ChildProcess; url: string; version: string };
    let node: ServedKnowledge;
    let kbUrl: string;
    let client: KnowledgeClient;
    const local = exampleSource();

    beforeAll(async () => {
      bun = await startBun();
      bun.child.removeAllListeners('exit');
      node = await serveKnowledge({ handler: exampleHandler() });
      kbUrl = `${bun.url}${BASE_PATH}/knowledge-bases/example`;
      client = createKnowledgeClient({ baseUrl: kbUrl, headers: READER });
    }, 60_000);

    afterAll(async () => {
      await node?.close();
      if (bun?.child.exitCode === null) {
        const exited = new Promise((resolve) => bun.child.once('exit', resolve));
        bun.child.kill('SIGTERM');
        await exited;
      }
    });

    it('is Bun serving, on loopback', async () => {
      expect(bun.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(bun.version).toMatch(/^\d+\.\d+\.\d+/);
      const response = await fetch(`${bun.url}${BASE_PATH}/knowledge-bases`, { headers: READER });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        items: [
          {
            knowledgeBaseId: 'example',
            title: 'Example knowledge',
            activeContentRevision: 42,
            url: `${BASE_PATH}/knowledge-bases/example`,
          },
        ],
      });
    });

    describe(`the seed's commands (${CURL ? 'with the real curl binary' : 'curl is not on PATH: through fetch'})`, () => {
      it.each(SEED_COMMANDS.map((command) => [command.name, command] as const))(
        '%s',
        async (_, command) => {
          const body = CURL ? await runCurl(kbUrl, command) : await runFetch(kbUrl, command);
          expect(body).toEqual(wire(await command.expected(local)));
        },
      );
    });

    it('answers the same status, headers and bytes as the Node server', async () => {
      const paths = [
        ...SEED_COMMANDS.map(
          (c) =>
            `${c.route}${c.params.length === 0 ? '' : `?${new URLSearchParams(c.params.map(([n, v]) => [n, v]))}`}`,
        ),
        '/files/agent-tools',
        '/files/agent-tools/related',
        '/graph/expand?fileId=agent-tools&depth=2',
        '/files/missing',
        '/tree?limit=0',
        '/search?query=x&extra=1',
      ];
      const cases: [string, Record<string, string>][] = [
        ...paths.map((path): [string, Record<string, string>] => [
          `/knowledge-bases/example${path}`,
          READER,
        ]),
        ['/knowledge-bases/example/tree', {}],
        ['/knowledge-bases/example/tree', OTHER],
        ['/knowledge-bases/private/tree', READER],
        [
          '/knowledge-bases/example/files/agent-tools/content',
          { ...READER, accept: 'text/markdown' },
        ],
      ];
      for (const [path, headers] of cases) {
        const init = { headers: { ...headers, 'x-request-id': 'same-id-1' } };
        const [fromBun, fromNode] = await Promise.all([
          fetch(`${bun.url}${BASE_PATH}${path}`, init),
          fetch(`${node.url}${BASE_PATH}${path}`, init),
        ]);
        expect(fromBun.status, path).toBe(fromNode.status);
        for (const name of [
          'content-type',
          'etag',
          'cache-control',
          'x-request-id',
          'retry-after',
          'www-authenticate',
          'x-knowledge-snapshot-id',
          'x-knowledge-path',
        ]) {
          expect(fromBun.headers.get(name), `${path} ${name}`).toBe(fromNode.headers.get(name));
        }
        expect(await fromBun.text(), path).toBe(await fromNode.text());
      }
    });

    it('a client round trip: every method equals the in-process source, snapshot ids included', async () => {
      expect(await client.listTree({ parentPath: 'pages' })).toEqual(
        wire(await local.listTree({ parentPath: 'pages' }, EXAMPLE_CONTEXT)),
      );
      expect(await client.getFile({ fileId: 'exploration' })).toEqual(
        wire(await local.getFile({ fileId: 'exploration' }, EXAMPLE_CONTEXT)),
      );
      const hits: SearchFilesOutput = await client.searchFiles({ query: QUESTIONS.zh });
      expect(hits).toEqual(wire(await local.searchFiles({ query: QUESTIONS.zh }, EXAMPLE_CONTEXT)));
      expect(hits.items.length).toBeGreaterThan(0);
      for (const item of hits.items) {
        const read: ReadFileOutput = await client.readFile({ fileId: item.fileId });
        const here = await local.readFile({ fileId: item.fileId }, EXAMPLE_CONTEXT);
        expect(read.file.snapshotId).toBe(here.file.snapshotId);
        expect(read).toEqual(wire(here));
        expect(await client.follow(item.readActions.fileContentByPath!)).toEqual(
          wire(await local.readFile({ path: item.path }, EXAMPLE_CONTEXT)),
        );
      }
      expect(await client.readRelated({ fileId: 'agent-tools' })).toEqual(
        wire(await local.readRelated({ fileId: 'agent-tools' }, EXAMPLE_CONTEXT)),
      );
      expect(await client.expandGraph({ fileId: 'agent-tools', depth: 2 })).toEqual(
        wire(await local.expandGraph({ fileId: 'agent-tools', depth: 2 }, EXAMPLE_CONTEXT)),
      );
      const missing = await expectKnowledgeError(
        client.getFile({ fileId: 'nope' }, { requestId: 'bun-1' }),
        { code: 'NOT_FOUND' },
      );
      expect(missing.requestId).toBe('bun-1');
    });

    it('long URLs reach the handler: a 2,000-character Chinese query is 200, 3,300 characters 400, a URL over 32,768 characters 414', async () => {
      const longest = `${QUESTIONS.zh}${'探索'.repeat(990)}`;
      expect(await client.searchFiles({ query: longest })).toEqual(
        wire(await local.searchFiles({ query: longest }, EXAMPLE_CONTEXT)),
      );
      const tooLong = await expectKnowledgeError(
        client.searchFiles({ query: '知'.repeat(3_300) }),
        { code: 'INVALID_ARGUMENT', message: /`query`/ },
      );
      expect(tooLong.httpStatus).toBe(400);
      const overUrl = await expectKnowledgeError(
        client.searchFiles({ query: '知'.repeat(4_000) }),
        { code: 'INVALID_ARGUMENT', message: /URL/ },
      );
      expect(overUrl.httpStatus).toBe(414);
    });
  },
);
