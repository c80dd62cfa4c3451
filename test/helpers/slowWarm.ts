/**
 * A source over the example knowledge whose search engine warms until the test says so: the default
 * BM25F engine behind a `warm` that reports progress and then waits for `finish()` (or its signal).
 */
import {
  createCatalogSource,
  createBm25fEngine,
  type KnowledgeSource,
  type SearchEngine,
  type SearchRequest,
  type SearchWarmProgress,
} from '../../src/agent/index.js';
import { exampleCatalog, exampleSourceOptions } from './exampleKnowledge.js';

/** The source, and the handles on its engine's warm-up. */
export interface SlowWarmSource {
  readonly source: KnowledgeSource;
  /** Let the engine's warm-up end (it then builds the real index). */
  finish(): void;
  /** Fail the engine's warm-up. */
  fail(error: Error): void;
  /** Send a progress report from the engine. */
  progress(progress: SearchWarmProgress): void;
  /** Times the engine's `warm` was called. */
  warms(): number;
  /** The searches the engine ran (not those the source refused). */
  readonly searches: SearchRequest[];
  /** The signal the engine's last warm-up was given. */
  signal(): AbortSignal | undefined;
}

/** A source whose engine's warm-up ends only when the test calls `finish()`. */
export function slowWarmSource(): SlowWarmSource {
  let release: (() => void) | undefined;
  let reject: ((error: Error) => void) | undefined;
  let report: ((progress: SearchWarmProgress) => void) | undefined;
  let warms = 0;
  let lastSignal: AbortSignal | undefined;
  const searches: SearchRequest[] = [];
  const real = createBm25fEngine();
  const source = createCatalogSource(
    exampleCatalog(),
    exampleSourceOptions({
      search: (corpus) => {
        const engine = real(corpus);
        return {
          async warm(signal, onProgress) {
            warms++;
            lastSignal = signal;
            report = onProgress;
            await new Promise<void>((resolve, fail) => {
              release = resolve;
              reject = fail;
              signal?.addEventListener('abort', () => fail(signal.reason as Error), { once: true });
            });
            await engine.warm!(signal);
          },
          search: (request) => {
            searches.push(request);
            return engine.search(request);
          },
        } satisfies SearchEngine;
      },
    }),
  );
  return {
    source,
    finish: () => release?.(),
    fail: (error) => reject?.(error),
    progress: (progress) => report?.(progress),
    warms: () => warms,
    searches,
    signal: () => lastSignal,
  };
}
