/**
 * `knowledge-kit serve` listens for SIGTERM and SIGINT before it prints the lines a caller waits for:
 * a signal sent the moment `export KNOWLEDGE_BASE_URL=…` is read stops it cleanly (exit 0), never
 * kills it by the default action (no listener yet: exit code `null`). Run in process, so the moment of
 * the write is observed exactly instead of raced.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run.js';
import { writeHandbook } from '../helpers/cli-knowledge.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });

describe('serve: signal listeners before the start lines', () => {
  it('has SIGTERM and SIGINT listeners when it prints its URL; a SIGTERM then stops it with exit 0', async () => {
    const dir = await writeHandbook(await tempRoot());
    const before = {
      SIGTERM: new Set(process.listeners('SIGTERM')),
      SIGINT: new Set(process.listeners('SIGINT')),
    };
    const added = (signal: 'SIGTERM' | 'SIGINT') =>
      process.listeners(signal).filter((l) => !before[signal].has(l));
    let atUrl: { readonly term: number; readonly int: number } | undefined;
    let stderr = '';
    const code = await runCli(['serve', dir, '--port', '0', '--quiet'], {
      stdout: {
        write(text: string) {
          if (atUrl !== undefined || !text.includes('export KNOWLEDGE_BASE_URL=')) return;
          atUrl = { term: added('SIGTERM').length, int: added('SIGINT').length };
          // What a caller does on reading the line (in process: the listeners called directly).
          setTimeout(() => {
            for (const listener of added('SIGTERM')) (listener as (s: string) => void)('SIGTERM');
          }, 0);
        },
      },
      stderr: { write: (t: string) => (stderr += t) },
    });
    expect(atUrl).toEqual({ term: 1, int: 1 });
    expect(code).toBe(0);
    expect(stderr).toContain('SIGTERM, stopping');
    expect(added('SIGTERM')).toEqual([]);
    expect(added('SIGINT')).toEqual([]);
  });
});
