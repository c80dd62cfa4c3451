/**
 * Property: whatever sequence of answers the server (or the network) gives, the client resolves with
 * the valid body or rejects with RATE_LIMITED, INTERNAL or TRANSPORT_ERROR as the answers dictate, and
 * never makes more than maxRetries + 1 requests. Waits are `Retry-After: 0`, so nothing is timed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isKnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import type { KnowledgeToolName } from '../../src/agent/index.js';
import { createKnowledgeClient } from '../../src/http/createKnowledgeClient.js';
import type { KnowledgeClient } from '../../src/http/types.js';
import {
  errorAnswer,
  fakeFetch,
  json,
  rateLimited,
  VALID_BODIES,
  type FakeAnswer,
} from '../helpers/client-fakeFetch.js';

const BASE = 'http://kb.test/openapi/v2/knowledge-bases/example';
const MAX_RETRY_AFTER = 1;

/** What the server or network does with one request. */
type Kind = 'ok' | 'rateLimited' | 'rateLimitedTooLong' | 'internal' | 'proxyError' | 'network';

const CALLS: Readonly<
  Record<KnowledgeToolName, (client: KnowledgeClient, requestId: string) => Promise<unknown>>
> = {
  list_tree: (c, requestId) => c.listTree({ limit: 5 }, { requestId }),
  get_file: (c, requestId) => c.getFile({ fileId: 'guides/setup' }, { requestId }),
  read_file: (c, requestId) => c.readFile({ path: 'pages/guides/setup.md' }, { requestId }),
  search_files: (c, requestId) => c.searchFiles({ query: '如何安装？' }, { requestId }),
  read_related: (c, requestId) => c.readRelated({ fileId: 'guides/setup' }, { requestId }),
  expand_graph: (c, requestId) => c.expandGraph({ fileId: 'guides/setup' }, { requestId }),
};

function answerOf(kind: Kind, operation: KnowledgeToolName, index: number): FakeAnswer {
  switch (kind) {
    case 'ok':
      return json(200, VALID_BODIES[operation]);
    case 'rateLimited':
      return rateLimited(0, `srv-${index}`);
    case 'rateLimitedTooLong':
      return rateLimited(MAX_RETRY_AFTER + 1 + index, `srv-${index}`);
    case 'internal':
      return errorAnswer('INTERNAL', 500, { requestId: `srv-${index}` });
    case 'proxyError':
      return new Response('<html>502 Bad Gateway</html>', {
        status: 502,
        headers: { 'content-type': 'text/html' },
      });
    case 'network':
      return new TypeError('fetch failed');
  }
}

/** The outcome the spec dictates: the index of the answer that decides it and how. */
function expected(
  kinds: readonly Kind[],
  maxRetries: number,
): {
  readonly requests: number;
  readonly outcome: 'ok' | 'RATE_LIMITED' | 'INTERNAL' | 'TRANSPORT_ERROR';
} {
  for (let i = 0; ; i++) {
    const kind = kinds[i] ?? 'ok';
    if (kind === 'rateLimited' && i < maxRetries) continue;
    const outcome =
      kind === 'ok'
        ? 'ok'
        : kind === 'rateLimited' || kind === 'rateLimitedTooLong'
          ? 'RATE_LIMITED'
          : kind === 'internal'
            ? 'INTERNAL'
            : 'TRANSPORT_ERROR';
    return { requests: i + 1, outcome };
  }
}

describe('createKnowledgeClient under any sequence of answers', () => {
  it('resolves with the valid body or rejects with RATE_LIMITED / INTERNAL / TRANSPORT_ERROR, within maxRetries + 1 requests', async () => {
    const kind = fc.constantFrom<Kind>(
      'ok',
      'rateLimited',
      'rateLimited',
      'rateLimitedTooLong',
      'internal',
      'proxyError',
      'network',
    );
    const operation = fc.constantFrom(...(Object.keys(CALLS) as KnowledgeToolName[]));
    await fc.assert(
      fc.asyncProperty(
        fc.array(kind, { maxLength: 6 }),
        fc.integer({ min: 0, max: 4 }),
        operation,
        async (kinds, maxRetries, op) => {
          const fake = fakeFetch((index) => answerOf(kinds[index] ?? 'ok', op, index));
          const client = createKnowledgeClient({
            baseUrl: BASE,
            fetch: fake.fetch,
            maxRetries,
            maxRetryAfterSeconds: MAX_RETRY_AFTER,
          });
          const want = expected(kinds, maxRetries);
          const result = await CALLS[op](client, 'prop-1').then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error }),
          );

          expect(fake.requests.length).toBeLessThanOrEqual(maxRetries + 1);
          expect(fake.requests.length).toBe(want.requests);
          if (result.ok) {
            expect(want.outcome).toBe('ok');
            expect(result.value).toEqual(VALID_BODIES[op]);
            return;
          }
          const { error } = result;
          expect(isKnowledgeToolError(error), String(error)).toBe(true);
          if (!isKnowledgeToolError(error)) return;
          expect(['RATE_LIMITED', 'INTERNAL', 'TRANSPORT_ERROR']).toContain(error.code);
          expect(error.code).toBe(want.outcome);
          const last = want.requests - 1;
          // A server error keeps the server's requestId; a transport error keeps the one the client sent.
          expect(error.requestId).toBe(error.code === 'TRANSPORT_ERROR' ? 'prop-1' : `srv-${last}`);
          expect(error.httpStatus).toBe(
            { RATE_LIMITED: 429, INTERNAL: 500, TRANSPORT_ERROR: 502 }[
              error.code as 'RATE_LIMITED'
            ],
          );
          for (const request of fake.requests)
            expect(request.headers.get('x-request-id')).toBe('prop-1');
        },
      ),
    );
  });
});
