/**
 * Zero false alarms: `check` on real documentation folders that nobody wrote for Knowledge Kit (no
 * anchors, every kind of Markdown) reports nothing. The corpus is read in place from
 * `../shared/corpus/markdown`; the test is skipped, saying so, when the folder is absent.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli } from '../helpers/cli.js';

const CORPUS = fileURLToPath(new URL('../../../shared/corpus/markdown', import.meta.url));
const PRESENT = existsSync(CORPUS);
if (!PRESENT)
  console.warn(
    `test/cli/check-corpus: skipped, the real-world corpus ${CORPUS} is absent (CI keeps ../shared beside the checkout).`,
  );

/** `.md`, `.mdx` and `.markdown` files under `dir` as the loader picks them: not in `node_modules`, not under a dot name. */
async function markdownFiles(dir: string): Promise<number> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => {
    if (!entry.isFile() || !/\.(?:md|mdx|markdown)$/.test(entry.name)) return false;
    const relative = `${entry.parentPath ?? entry.path}/${entry.name}`.slice(dir.length + 1);
    return relative
      .split('/')
      .every((segment) => segment !== 'node_modules' && !segment.startsWith('.'));
  }).length;
}

beforeAll(requireBuiltCli);

describe.skipIf(!PRESENT)('check on the real-world Markdown corpus', () => {
  it('exits 0 with 0 problems over every file, in text and JSON', async () => {
    const [files, text, json] = await Promise.all([
      markdownFiles(CORPUS),
      runCli(['check', CORPUS], { timeoutMs: 60_000 }),
      runCli(['check', CORPUS, '--format', 'json'], { timeoutMs: 60_000 }),
    ]);
    expect(files).toBeGreaterThan(1000);
    expect(text.stderr).toBe('');
    expect(text.code, text.stdout.slice(0, 2000)).toBe(0);
    // Warnings (front matter read leniently) are allowed; every line before the summary is one.
    expect(text.stdout).toMatch(
      new RegExp(
        `^(?:[^\\n]+  INVALID_FRONT_MATTER  warning: [^\\n]+\\n)*${files} files, \\d+ sections?, 0 problems(?:, \\d+ warnings?)?\\n$`,
      ),
    );
    const output = JSON.parse(json.stdout) as { files: number; problems: unknown[] };
    expect(json.code).toBe(0);
    expect(output.files).toBe(files);
    expect(output.problems).toEqual([]);
  });
});
