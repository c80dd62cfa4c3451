/**
 * A server whose search index is still being built (issue 21 item 12), over loopback: a bounded load
 * of reads answers 200 meanwhile, a search answers 503 `SEARCH_UNAVAILABLE` with a `Retry-After`
 * header equal to the body's `retryAfterSeconds`, and once the index is built the same search is 200.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createKnowledgeHandler } from '../../src/http/index.js';
import { serveKnowledge, type ServedKnowledge } from '../../src/http/node/index.js';
import { slowWarmSource } from '../helpers/slowWarm.js';
import { getJson } from '../helpers/cli-serve.js';

let served: ServedKnowledge | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
});

describe('HTTP while the search index is built', () => {
  it('reads answer 200; a search answers 503 with Retry-After and retryAfterSeconds; then 200', async () => {
    const slow = slowWarmSource();
    const grant = { knowledgeBases: { kb: { source: slow.source, title: 'kb' } } };
    served = await serveKnowledge({ handler: createKnowledgeHandler({ access: () => grant }) });
    const base = `${served.url}/knowledge-bases/kb`;
    const warming = slow.source.warm!();
    slow.progress({ done: 1, total: 2 });

    const reads = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        getJson(i % 2 === 0 ? `${base}/files/content?path=index.md` : `${base}/tree?limit=5`),
      ),
    );
    expect(reads.map((read) => read.status)).toEqual(Array.from({ length: 20 }, () => 200));

    const refused = await getJson(`${base}/search?query=cursor`);
    expect(refused.status).toBe(503);
    const body = refused.body as { error: { code: string; retryAfterSeconds: number } };
    expect(body.error.code).toBe('SEARCH_UNAVAILABLE');
    expect(Number.isInteger(body.error.retryAfterSeconds)).toBe(true);
    expect(body.error.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('retry-after')).toBe(String(body.error.retryAfterSeconds));
    expect(slow.searches).toHaveLength(0);

    slow.finish();
    await warming;
    const found = await getJson(`${base}/search?query=cursor`);
    expect(found.status).toBe(200);
    expect(found.headers.get('retry-after')).toBeNull();
    expect(slow.searches).toHaveLength(1);
  });
});
