/**
 * Fuzz target (issue 21): the folder walker on trees of odd names (spaces, glob characters, line
 * breaks, non-ASCII, leading dots), folders, symbolic links (inside, outside, to `/`, to devices,
 * dangling, loops) and FIFOs, with and without `followLinks`. Every load ends, with a catalog or a
 * `KnowledgeError`; no text from outside the folder is ever loaded; each refused entry is named; without
 * `followLinks` no document comes through a link. `npm run fuzz -- walker` soaks it.
 */
import { execFileSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { isKnowledgeError } from '../../src/index.js';
import { loadKnowledgeDirectory } from '../../src/node/index.js';
import { readKnowledgeDirectory } from '../../src/node/readKnowledgeDirectory.js';

/** Disk-bound: a sixth of the runs of the pure properties (25 in CI, more under `npm run fuzz`). */
const RUNS = Math.max(1, Math.floor(Number(process.env['FC_NUM_RUNS'] ?? 150) / 6));

/** A file outside every tree, whose marker must never be loaded. */
const outside = mkdtempSync(join(tmpdir(), 'kk-fuzz-outside-'));
const SECRET = 'SECRET-OUTSIDE-MARKER';
writeFileSync(join(outside, 'secret.md'), `# Secret\n${SECRET}\n`);
afterAll(() => rmSync(outside, { recursive: true, force: true }));

const nameUnit = fc.constantFrom(
  ...'ab z',
  '.',
  '-',
  '*',
  '[',
  ']',
  '{',
  '}',
  '?',
  '\n',
  'é',
  '文',
  '%',
  '#',
);
const name = fc
  .string({ unit: nameUnit, minLength: 1, maxLength: 6 })
  .filter((n) => n !== '.' && n !== '..');
const folderPath = fc.array(name, { maxLength: 2 });

/** One entry of a tree, relative to its root. */
type Entry =
  | { kind: 'file'; path: string[] }
  | { kind: 'dir'; path: string[] }
  | { kind: 'link'; path: string[]; target: string }
  | { kind: 'fifo'; path: string[] };

const target = fc.oneof(
  fc.constantFrom(
    '/',
    '/etc/passwd',
    '/dev/zero',
    '/dev/null',
    join(outside, 'secret.md'),
    outside,
  ),
  fc.constantFrom('.', '..', 'missing.md', 'a.md', 'sub', '../..'),
);
const entry: fc.Arbitrary<Entry> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc
      .tuple(folderPath, name)
      .map(([d, n]) => ({ kind: 'file' as const, path: [...d, `${n}.md`] })),
  },
  { weight: 1, arbitrary: folderPath.map((d) => ({ kind: 'dir' as const, path: [...d, 'sub'] })) },
  {
    weight: 3,
    arbitrary: fc.tuple(folderPath, name, fc.boolean(), target).map(([d, n, md, t]) => ({
      kind: 'link' as const,
      path: [...d, md ? `${n}.md` : n],
      target: t,
    })),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(folderPath, name)
      .map(([d, n]) => ({ kind: 'fifo' as const, path: [...d, `${n}.md`] })),
  },
);

/** Writes the entries that fit (a path taken by an earlier entry is skipped). */
function build(root: string, entries: readonly Entry[]): void {
  writeFileSync(join(root, 'a.md'), '# A\n');
  mkdirSync(join(root, 'sub'), { recursive: true });
  for (const e of entries) {
    const at = join(root, ...e.path);
    try {
      mkdirSync(dirname(at), { recursive: true });
      lstatSync(at);
      continue; // taken
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') continue;
    }
    try {
      if (e.kind === 'file') writeFileSync(at, `# ${e.path.join('/')}\n`);
      else if (e.kind === 'dir') mkdirSync(at, { recursive: true });
      else if (e.kind === 'link') symlinkSync(e.target, at);
      else execFileSync('mkfifo', [at]);
    } catch {
      // A parent that is a file or a link: the entry does not fit this tree.
    }
  }
}

describe('folder walker fuzz', () => {
  it('every load ends with a catalog or a KnowledgeError; nothing from outside is read; refusals are named', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 12 }),
        fc.boolean(),
        async (entries, followLinks) => {
          const root = mkdtempSync(join(tmpdir(), 'kk-fuzz-walk-'));
          try {
            build(root, entries);
            // The reading `check` shows: documents are there even when another file has a problem.
            let reading;
            try {
              reading = await readKnowledgeDirectory(root, { followLinks });
            } catch (error) {
              // Only a file that vanished or cannot be opened may end the reading.
              expect(isKnowledgeError(error) && error.code === 'READ_FAILED', String(error)).toBe(
                true,
              );
              return;
            }
            const real = realpathSync(root);
            for (const document of reading.documents) {
              const text = document.parts.filter((p) => typeof p === 'string').join('');
              expect(text).not.toContain(SECRET);
            }
            for (const path of reading.paths) {
              const at = realpathSync(join(root, path));
              expect(at.startsWith(`${real}/`), `${path} is ${at}`).toBe(true);
              expect(statSync(at).isFile()).toBe(true);
              if (!followLinks) expect(at).toBe(join(real, path));
            }
            for (const issue of reading.issues) {
              expect(issue.message).not.toContain(SECRET);
              expect(typeof issue.file).toBe('string');
              if (issue.code === 'REFUSED_FILE')
                expect(() => lstatSync(join(root, issue.file!))).not.toThrow();
            }
            // The loader agrees: a catalog exactly when there is no problem.
            const loaded = await loadKnowledgeDirectory(root, { followLinks }).catch(
              (error: unknown) => error,
            );
            expect(isKnowledgeError(loaded)).toBe(reading.issues.length > 0);
          } finally {
            rmSync(root, { recursive: true, force: true });
          }
        },
      ),
      { numRuns: RUNS },
    );
  }, 600_000);
});
