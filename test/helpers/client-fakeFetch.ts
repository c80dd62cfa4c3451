/**
 * A fake `fetch` for the client tests: it records every `Request` and answers from a script, one
 * answer per request, so a test says exactly what the server (or the network) did.
 */
import type { KnowledgeToolErrorCode } from '../../src/agent/errors/codes.js';
import type { KnowledgeToolName } from '../../src/agent/index.js';

/** What one request gets: a response, a thrown error (the network failed), or a function of the request. */
export type FakeAnswer = Response | Error | ((request: Request) => Response | Promise<Response>);

/** A scripted `fetch` and what it saw. */
export interface FakeFetch {
  /** For `createKnowledgeClient({ fetch })`. */
  readonly fetch: (request: Request) => Promise<Response>;
  /** Every request made, in order. */
  readonly requests: Request[];
  /** The URLs requested, in order. */
  urls(): string[];
}

/**
 * A `fetch` that answers the n-th request with `answers[n]` (a function of the index when given),
 * and fails the test's expectations loudly when the client asks for more than the script holds.
 */
export function fakeFetch(
  answers: readonly FakeAnswer[] | ((index: number, request: Request) => FakeAnswer),
): FakeFetch {
  const requests: Request[] = [];
  return {
    requests,
    urls: () => requests.map((request) => request.url),
    fetch: async (request) => {
      const index = requests.length;
      requests.push(request);
      const answer = typeof answers === 'function' ? answers(index, request) : answers[index];
      if (answer === undefined)
        throw new Error(`fakeFetch: no answer scripted for request ${index + 1} (${request.url})`);
      if (answer instanceof Error) throw answer;
      return typeof answer === 'function' ? answer(request) : answer;
    },
  };
}

/** A JSON response, as the handler sends them. */
export function json(
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });
}

/** The seed's error shape with `status` (default the code's own) and the server's `requestId`. */
export function errorAnswer(
  code: KnowledgeToolErrorCode | string,
  status: number,
  extra: {
    readonly requestId?: string;
    readonly retryAfterSeconds?: number;
    readonly message?: string;
  } = {},
): Response {
  const requestId = extra.requestId ?? 'srv-1';
  const error = {
    code,
    message: extra.message ?? `Server says ${code}.`,
    httpStatus: status,
    ...(extra.retryAfterSeconds === undefined
      ? {}
      : { retryAfterSeconds: extra.retryAfterSeconds }),
  };
  const headers: Record<string, string> = { 'x-request-id': requestId };
  if (extra.retryAfterSeconds !== undefined)
    headers['retry-after'] = String(extra.retryAfterSeconds);
  return json(status, { error, requestId }, headers);
}

/** A `429 RATE_LIMITED` answer asking to wait `seconds`. */
export function rateLimited(seconds: number, requestId = 'srv-429'): Response {
  return errorAnswer('RATE_LIMITED', 429, { retryAfterSeconds: seconds, requestId });
}

/** A minimal valid 200 body of each operation (the client checks the top-level shape only). */
export const VALID_BODIES: Readonly<Record<KnowledgeToolName, Readonly<Record<string, unknown>>>> =
  Object.freeze({
    list_tree: { activeContentRevision: 1, items: [], nextCursor: null },
    get_file: {
      activeContentRevision: 1,
      fileId: 'guides/setup',
      path: 'pages/guides/setup.md',
      title: 'Setup',
      sections: [],
    },
    read_file: {
      file: { fileId: 'guides/setup', path: 'pages/guides/setup.md', snapshotId: 'snap-1' },
      content: '# Setup\n',
    },
    search_files: {
      activeContentRevision: 1,
      items: [],
      searchStatus: 'no_candidates',
      nextCursor: null,
    },
    read_related: { fileId: 'guides/setup', items: [], nextCursor: null },
    expand_graph: {
      activeContentRevision: 1,
      seedFile: { fileId: 'guides/setup', path: 'pages/guides/setup.md' },
      relationships: [],
      graphPaths: [],
      nextCursor: null,
    },
  });

/** A fetch that answers only when `request.signal` aborts (then rejects as a real fetch does): a server that never answers. */
export function silentServer(): (request: Request) => Promise<Response> {
  return (request) =>
    new Promise<Response>((_, reject) => {
      const abort = (): void =>
        reject(
          request.signal.reason ?? new DOMException('The operation was aborted.', 'AbortError'),
        );
      if (request.signal.aborted) abort();
      else request.signal.addEventListener('abort', abort, { once: true });
    });
}

/** Whether `promise` has settled after the pending microtasks and timers run (fake timers: after `advance`). */
export function settledState<T>(promise: Promise<T>): () => 'pending' | 'fulfilled' | 'rejected' {
  let state: 'pending' | 'fulfilled' | 'rejected' = 'pending';
  promise.then(
    () => (state = 'fulfilled'),
    () => (state = 'rejected'),
  );
  return () => state;
}
