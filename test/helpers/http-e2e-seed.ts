/**
 * The seed's four `curl` commands against a running server (Node or Bun), with the answer each must
 * give: the in-process source's output for the same call, with the server's `actionBase` and
 * `knowledgeBaseId`. They run with the real `curl` when it is on PATH, else as the same requests
 * through `fetch`.
 */
import { execFile } from 'node:child_process';
import type { KnowledgeCallContext, KnowledgeSource } from '../../src/agent/index.js';
import { BASE_PATH, READER } from './exampleHandler.js';

/** What the handler passes to the source for knowledge base `example`. */
export const EXAMPLE_CONTEXT: KnowledgeCallContext = Object.freeze({
  actionBase: `${BASE_PATH}/knowledge-bases/example`,
  knowledgeBaseId: 'example',
});

/** Complete questions, as an agent would send them: one in English, one in Chinese. */
export const QUESTIONS = Object.freeze({
  en: 'When does a cursor go stale, and what should the agent do then?',
  zh: '智能体的探索流程什么时候停止？',
});

/** One of the seed's commands: the route under `KNOWLEDGE_BASE_URL`, `--data-urlencode` pairs, and the source call it equals. */
export interface SeedCommand {
  readonly name: string;
  /** Path under the knowledge-base URL, already encoded. */
  readonly route: string;
  /** `--data-urlencode "name=value"` pairs (with `-G`); none for a plain GET. */
  readonly params: readonly (readonly [string, string])[];
  readonly expected: (source: KnowledgeSource) => Promise<unknown>;
}

/** The seed's four commands (search twice: English and Chinese), over the example knowledge. */
export const SEED_COMMANDS: readonly SeedCommand[] = Object.freeze([
  {
    name: 'tree, limit=50',
    route: '/tree',
    params: [['limit', '50']],
    expected: (s) => s.listTree({ limit: 50 }, EXAMPLE_CONTEXT),
  },
  {
    name: 'files/{fileId}/content',
    route: '/files/agent-tools/content',
    params: [],
    expected: (s) => s.readFile({ fileId: 'agent-tools' }, EXAMPLE_CONTEXT),
  },
  {
    name: 'files/{fileId}/content with a / in the ID',
    route: `/files/${encodeURIComponent('_graph/by-file/exploration.json')}/content`,
    params: [],
    expected: (s) => s.readFile({ fileId: '_graph/by-file/exploration.json' }, EXAMPLE_CONTEXT),
  },
  {
    name: 'files/content, path=index.md',
    route: '/files/content',
    params: [['path', 'index.md']],
    expected: (s) => s.readFile({ path: 'index.md' }, EXAMPLE_CONTEXT),
  },
  {
    name: 'search, an English question',
    route: '/search',
    params: [['query', QUESTIONS.en]],
    expected: (s) => s.searchFiles({ query: QUESTIONS.en }, EXAMPLE_CONTEXT),
  },
  {
    name: 'search, a Chinese question',
    route: '/search',
    params: [['query', QUESTIONS.zh]],
    expected: (s) => s.searchFiles({ query: QUESTIONS.zh }, EXAMPLE_CONTEXT),
  },
]);

/** The `curl` arguments of a command: `-sS [-G] URL [--data-urlencode name=value]… -H "Authorization: …"`. */
export function curlArguments(knowledgeBaseUrl: string, command: SeedCommand): string[] {
  const args = ['-sS'];
  if (command.params.length > 0) args.push('-G');
  args.push(`${knowledgeBaseUrl}${command.route}`);
  for (const [name, value] of command.params) args.push('--data-urlencode', `${name}=${value}`);
  args.push('-H', `Authorization: ${READER.authorization}`);
  return args;
}

/** Whether a `curl` binary runs here. */
export function hasCurl(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('curl', ['--version'], { timeout: 10_000 }, (error) => resolve(error === null));
  });
}

/** Run a command with the real `curl`; its stdout parsed as JSON. */
export function runCurl(knowledgeBaseUrl: string, command: SeedCommand): Promise<unknown> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      curlArguments(knowledgeBaseUrl, command),
      { timeout: 30_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`curl failed: ${stderr}`, { cause: error }));
        else {
          try {
            resolve(JSON.parse(stdout));
          } catch (cause) {
            reject(
              new Error(`curl printed something that is not JSON: ${stdout.slice(0, 200)}`, {
                cause,
              }),
            );
          }
        }
      },
    );
  });
}

/** The same request through `fetch`, when there is no `curl`; the status must be 200. */
export async function runFetch(knowledgeBaseUrl: string, command: SeedCommand): Promise<unknown> {
  const query = new URLSearchParams(command.params.map(([n, v]) => [n, v])).toString();
  const response = await fetch(
    `${knowledgeBaseUrl}${command.route}${query === '' ? '' : `?${query}`}`,
    { headers: READER },
  );
  if (response.status !== 200)
    throw new Error(`${command.name}: status ${response.status}: ${await response.text()}`);
  return response.json();
}

/** A JSON round trip, as a body on the wire would be. */
export function wire<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
