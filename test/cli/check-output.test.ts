/**
 * What `check` prints whatever the folder holds: every problem and the summary at 140,000 problems,
 * and file names with line breaks or escape characters escaped, in the text and GitHub formats.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';
import { summaryLine } from '../helpers/cli-knowledge.js';

beforeAll(requireBuiltCli);
const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });
useRunningClis();

describe.concurrent('check at scale and with hostile names', () => {
  it('140,000 problems: exit 1 with every problem and the summary, not a RangeError', async () => {
    const root = await tempRoot();
    const n = 140_000;
    await writeTree(root, { 'a.md': `# A\n${'<!-- /agent-section:x -->\n'.repeat(n)}` });
    const result = await runCli(['check', '.'], { cwd: root, timeoutMs: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(1);
    const lines = linesOf(result.stdout);
    expect(lines).toHaveLength(n + 1);
    expect(lines.at(-1)).toBe(summaryLine(1, 0, n));
    expect(lines[n - 1]).toMatch(new RegExp(`^a\\.md:${n + 1}:1  UNEXPECTED_CLOSE  `));
  }, 90_000);

  it('text format: a file name with line breaks and ESC is escaped, so it starts no workflow command and no terminal sequence', async () => {
    const root = await tempRoot();
    const name = 'e\n::warning file=x::INJECTED\n\u001b[31m.md';
    await writeTree(root, { [`kb/${name}`]: '# E\n' });
    const text = await runCli(['check', 'kb'], { cwd: root });
    expect(text.code).toBe(1);
    const lines = linesOf(text.stdout);
    expect(lines).toHaveLength(2);
    expect(text.stdout).not.toContain('\u001b');
    expect(lines.some((line) => line.startsWith('::'))).toBe(false);
    expect(lines[0]).toContain('kb/e\\n::warning file=x::INJECTED\\n\\x1b[31m.md');
    expect(lines[1]).toBe(summaryLine(1, 0, 1));

    const github = await runCli(['check', 'kb', '--format', 'github'], { cwd: root });
    expect(github.code).toBe(1);
    const annotations = linesOf(github.stdout);
    expect(annotations).toHaveLength(2);
    expect(annotations[0]).toMatch(/^::error file=kb\/e%0A%3A%3Awarning file=x%3A%3AINJECTED%0A/);
    expect(annotations.filter((line) => line.startsWith('::'))).toHaveLength(1);
  });
});
