/**
 * A size limit per file (`maxFileBytes`, default 64 MiB): a larger file is a `REFUSED_FILE` problem of
 * that file, with `actual` and `limit`, and the other files are served. One file over about 512 MiB
 * used to stop `check` with a stack trace, `serve` and `mcp` with exit 2, and under `--watch` every
 * later reload. The tests use a small limit, and a sparse file for the default one.
 */
import { execFileSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  exportKnowledgeDirectory,
  loadKnowledgeDirectory,
  loadKnowledgeFiles,
  watchKnowledgeFiles,
  type KnowledgeFilesChange,
} from '../../src/node/index.js';
import { catchKnowledgeError } from '../helpers/knowledgeError.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();

const BIG = `# Big\n\n${'x'.repeat(200)}\n`;

describe('maxFileBytes', () => {
  it('a file over the limit is REFUSED_FILE with actual and limit, naming the option; the others are served', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'big.md': BIG });
    const loaded = await loadKnowledgeFiles(dir, { maxFileBytes: 100 });
    expect(loaded.catalog.ids).toEqual(['a']);
    expect(loaded.status['big.md']).toMatchObject({
      generatedOutputStatus: 'unavailable',
      issues: [{ code: 'REFUSED_FILE', file: 'big.md', actual: BIG.length, limit: 100 }],
    });
    expect(loaded.status['big.md']!.issues[0]!.message).toBe(
      `big.md: loadKnowledgeDirectory does not read it: it holds ${BIG.length} bytes, over the limit of 100 bytes per file (\`maxFileBytes\`). Split it into smaller files, exclude it, or raise \`maxFileBytes\` in the loader options.`,
    );
    expect(loaded.status['a.md']!.generatedOutputStatus).toBe('current_available');

    const error = await catchKnowledgeError(loadKnowledgeDirectory(dir, { maxFileBytes: 100 }));
    expect(error.issues.map((i) => [i.code, i.file])).toEqual([['REFUSED_FILE', 'big.md']]);
    // At the limit, it loads.
    expect((await loadKnowledgeDirectory(dir, { maxFileBytes: BIG.length })).catalog.ids).toEqual([
      'a',
      'big',
    ]);
  });

  it('the default is 64 MiB: a (sparse) file of 65 MiB is refused without being read', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    execFileSync('truncate', ['-s', '65M', join(dir, 'huge.md')]);
    const started = performance.now();
    const loaded = await loadKnowledgeFiles(dir);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(loaded.status['huge.md']!.issues).toMatchObject([
      { code: 'REFUSED_FILE', actual: 65 * 1024 * 1024, limit: 64 * 1024 * 1024 },
    ]);
    expect(loaded.catalog.ids).toEqual(['a']);
  });

  it('refuses a limit that is not a whole number of bytes from 1 to the longest string', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    for (const maxFileBytes of [0, -1, 1.5, Number.NaN, '100', 2 ** 30]) {
      const error = await catchKnowledgeError(
        loadKnowledgeDirectory(dir, { maxFileBytes } as unknown as { maxFileBytes: number }),
      );
      expect(error.issues[0]).toMatchObject({
        code: 'INVALID_INPUT',
        path: ['options', 'maxFileBytes'],
      });
    }
  });

  it('exportKnowledgeDirectory takes it too', async () => {
    const dir = await folder({ 'a.md': '# A\n', 'big.md': BIG });
    const out = await folder();
    const error = await catchKnowledgeError(
      exportKnowledgeDirectory(dir, { out, maxFileBytes: 100 }),
    );
    expect(error.issues.map((i) => [i.code, i.file])).toEqual([['REFUSED_FILE', 'big.md']]);
  });

  it('under watch: a file over the limit is listed unavailable, and later edits still reload', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const changes: KnowledgeFilesChange[] = [];
    let notify: (() => void) | undefined;
    const next = (accept: (c: KnowledgeFilesChange) => boolean) =>
      new Promise<KnowledgeFilesChange>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no reload')), 10_000);
        notify = () => {
          const last = changes.at(-1)!;
          if (!accept(last)) return;
          clearTimeout(timer);
          resolve(last);
        };
      });
    const watcher = await watchKnowledgeFiles(
      dir,
      { debounceMs: 20, maxFileBytes: 100 },
      (change) => {
        changes.push(change);
        notify?.();
      },
    );
    try {
      const big = next((c) => c.ok && c.loaded.status['big.md'] !== undefined);
      await writeFile(join(dir, 'big.md'), BIG);
      const withBig = await big;
      if (!withBig.ok) throw new Error('expected a reload');
      expect(withBig.loaded.status['big.md']!.generatedOutputStatus).toBe('unavailable');
      const edited = next((c) => c.ok && c.loaded.catalog.ids.includes('b'));
      await writeFile(join(dir, 'b.md'), '# B\n');
      const withB = await edited;
      if (!withB.ok) throw new Error('expected a reload');
      expect(withB.loaded.catalog.ids).toEqual(['a', 'b']);
    } finally {
      await watcher.close();
    }
  });
});
