/** Records what a watcher reports, and waits for a report with a promise and a generous timeout. */
import type { KnowledgeDirectoryChange } from '../../src/node/index.js';

/** How long to wait for a reload before failing: file events can be slow on a busy machine. */
export const CHANGE_TIMEOUT_MS = 10_000;

export interface ChangeRecorder {
  /** Pass as `onChange`. */
  readonly onChange: (change: KnowledgeDirectoryChange) => void;
  /** Every report so far, in order. */
  readonly changes: readonly KnowledgeDirectoryChange[];
  /**
   * A promise for the first report, from now on, that `accept` accepts. Call it before making the
   * change, so that no report is missed.
   */
  next(
    accept?: (change: KnowledgeDirectoryChange) => boolean,
    timeoutMs?: number,
  ): Promise<KnowledgeDirectoryChange>;
}

/** A fresh recorder. */
export function changeRecorder(): ChangeRecorder {
  const changes: KnowledgeDirectoryChange[] = [];
  const waiting = new Set<(change: KnowledgeDirectoryChange) => void>();
  return {
    changes,
    onChange(change) {
      changes.push(change);
      for (const notify of [...waiting]) notify(change);
    },
    next(accept = () => true, timeoutMs = CHANGE_TIMEOUT_MS) {
      const since = changes.length;
      return new Promise((resolve, reject) => {
        const notify = (change: KnowledgeDirectoryChange): void => {
          if (!accept(change)) return;
          waiting.delete(notify);
          clearTimeout(timer);
          resolve(change);
        };
        const timer = setTimeout(() => {
          waiting.delete(notify);
          const seen = changes
            .slice(since)
            .map((c) =>
              c.ok ? `ok ${c.loaded.catalog.ids.join(',')}` : `error ${c.error.message}`,
            );
          reject(
            new Error(
              `no matching change within ${timeoutMs} ms; reports since waiting: ${JSON.stringify(seen)}`,
            ),
          );
        }, timeoutMs);
        waiting.add(notify);
      });
    },
  };
}
