/**
 * Versions of folders on the command line: `search`, `read` and `outline` with `--version LABEL=FOLDER`
 * flags read the version named by `--version LABEL` (the default otherwise), each from its own folder;
 * a version there is not is refused with the list, never read from another; a cursor of one version is
 * refused with another; and every argument error names the flag and the fix. In process.
 */
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { useTempFolders, type Tree } from '../helpers/tempFolders.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-versions-' });

/** A returns page whose window is `days` days, and a page only this version has. */
function version(days: number, only: string): Tree {
  return {
    'returns.md': `# Returns\n\n<!-- agent-section:window -->\n## Return window\n\nUnworn items can be returned within ${days} days of delivery.\n<!-- /agent-section:window -->\n\n## Refunds\n\nRefunds go back to the original payment method within five working days, once the parcel is checked.\n`,
    [`${only}.md`]: `# ${only}\n\nA page of this version alone.\n`,
  };
}

/** Two folders: `3.x` (60 days, `gift-cards`) and `2.x` (30 days, `vouchers`). */
async function twoVersions(): Promise<{ v3: string; v2: string; flags: string[] }> {
  const v3 = await folder(version(60, 'gift-cards'));
  const v2 = await folder(version(30, 'vouchers'));
  return { v3, v2, flags: ['--version', `3.x=${v3}`, '--version', `2.x=${v2}`] };
}

const QUESTION = 'how many days is the return window';

describe('search, read and outline: --version', () => {
  it('the same question asked of two folder versions answers from each version’s own pages', async () => {
    const { flags } = await twoVersions();
    const answers: Record<string, string> = {};
    for (const label of ['3.x', '2.x']) {
      const run = await cliInProcess(['search', ...flags, '--version', label, QUESTION, '--json']);
      expect(run.code, run.stderr).toBe(0);
      const output = JSON.parse(run.stdout) as {
        items: { path: string; sourceExcerpt: string }[];
      };
      expect(output.items[0]!.path).toBe('pages/returns.md');
      answers[label] = output.items[0]!.sourceExcerpt;
    }
    expect(answers['3.x']).toContain('within 60 days');
    expect(answers['2.x']).toContain('within 30 days');
    expect(answers['2.x']).not.toContain('60');

    // Read: the section's own text of each version; the default (the first) without --version.
    const read = async (...extra: string[]) =>
      cliInProcess(['read', ...flags, ...extra, 'returns', '--self', 'window']);
    expect((await read('--version', '2.x')).stdout).toContain('within 30 days');
    expect((await read('--version', '3.x')).stdout).toContain('within 60 days');
    expect((await read()).stdout).toContain('within 60 days');

    // Outline: each version's own documents.
    const outline = async (label: string) =>
      (await cliInProcess(['outline', ...flags, '--version', label])).stdout;
    expect(await outline('2.x')).toMatch(/^vouchers {2}/m);
    expect(await outline('2.x')).not.toMatch(/^gift-cards/m);
    expect(await outline('3.x')).toMatch(/^gift-cards {2}/m);
  });

  it('--default-version is for serve and mcp; search reads the first version when none is named', async () => {
    const { flags } = await twoVersions();
    const run = await cliInProcess(['search', ...flags, QUESTION]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('within 60 days');
  });

  it('a version there is not is refused with the list of versions (VERSION_NOT_FOUND, exit 2), never read from another', async () => {
    const { flags } = await twoVersions();
    for (const command of [
      ['search', ...flags, '--version', '4.x', QUESTION],
      ['read', ...flags, '--version', '4.x', 'returns'],
      ['outline', ...flags, '--version', '4.x'],
    ]) {
      const run = await cliInProcess(command);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        new RegExp(
          `^knowledge-kit ${command[0]!}: VERSION_NOT_FOUND: \`(search_files|read_file|list_tree)\`: this knowledge base has no version \`4\\.x\`\\. Its versions: \`3\\.x\` \\(default\\), \`2\\.x\`\\.`,
        ),
      );
      expect(run.stderr).toContain('`--version LABEL`');
    }
  });

  it('a plain folder is version `current`: naming it reads the folder, another is VERSION_NOT_FOUND', async () => {
    const { v2 } = await twoVersions();
    const same = await cliInProcess(['search', v2, '--version', 'current', QUESTION]);
    expect(same.code, same.stderr).toBe(0);
    expect(same.stdout).toContain('within 30 days');
    for (const command of [
      ['search', v2, '--version', '2.x', QUESTION],
      ['read', v2, 'returns', '--version', '2.x'],
      ['outline', v2, '--version', '2.x'],
    ]) {
      const run = await cliInProcess(command);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain('VERSION_NOT_FOUND: `' /* the tool */);
      expect(run.stderr).toContain(
        'this knowledge base has no version `2.x`. Its versions: `current` (default).',
      );
    }
    // As NOT_FOUND is: the same exit code.
    const missing = await cliInProcess(['read', v2, 'no-such-page']);
    expect(missing.code).toBe(2);
  });

  it('a cursor of one version is refused with another (INVALID_CURSOR), and continues its own without --version', async () => {
    const { flags } = await twoVersions();
    const first = await cliInProcess([
      'read',
      ...flags,
      '--version',
      '2.x',
      'returns',
      '--max-chars',
      '60',
    ]);
    expect(first.code, first.stderr).toBe(0);
    const cursor = /--cursor (\S+)$/m.exec(first.stderr)![1]!;
    expect(cursor.startsWith('2.x~')).toBe(true);

    const crossed = await cliInProcess([
      'read',
      ...flags,
      '--version',
      '3.x',
      'returns',
      '--max-chars',
      '60',
      '--cursor',
      cursor,
    ]);
    expect(crossed.code).toBe(2);
    expect(crossed.stderr).toContain(
      'knowledge-kit read: INVALID_CURSOR: `read_file`: the cursor continues version `2.x`, not `3.x`.',
    );

    const next = await cliInProcess([
      'read',
      ...flags,
      'returns',
      '--max-chars',
      '60',
      '--cursor',
      cursor,
    ]);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stdout).not.toBe(first.stdout);
  });

  it('the package version is still `knowledge-kit --version`', async () => {
    const run = await cliInProcess(['--version']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^\d+\.\d+\.\d+/);
  });
});

describe('--version and --default-version: argument errors name the flag and the fix (exit 2)', () => {
  it.each([
    [
      'a label that is not valid',
      (dir: string) => ['serve', '--version', `3 x=${dir}`],
      'knowledge-kit serve: --version "3 x": character 2 (" ") is not one of A–Z a–z 0–9 . _ -; name versions like 3.x, v2 or 2026-10.',
    ],
    [
      'LABEL= without a folder',
      () => ['mcp', '--version', '3.x='],
      "knowledge-kit mcp: --version 3.x= names no folder: give the version's folder after `=`, such as `--version 3.x=./docs`.",
    ],
    ['no label', (dir: string) => ['serve', '--version', `=${dir}`], 'the label is missing.'],
    [
      'a folder that does not exist',
      (dir: string) => ['serve', '--version', `3.x=${dir}/nope`],
      `no such folder; give the folder of version \`3.x\`'s Markdown files.`,
    ],
    [
      'a path that is not a folder',
      (dir: string) => ['serve', '--version', `3.x=${dir}/gift-cards.md`],
      `gift-cards.md: is not a folder; give the folder of version \`3.x\`'s Markdown files.`,
    ],
    [
      'a label `..`',
      (dir: string) => ['mcp', '--version', `..=${dir}`],
      'knowledge-kit mcp: --version "..": a version label is not `..`; name versions like 3.x, v2 or 2026-10.',
    ],
    [
      'a version to read that is not a label',
      (dir: string) => ['search', dir, '--version', 'a/b', 'q'],
      'knowledge-kit search: --version "a/b": character 2 ("/") is not one of A–Z a–z 0–9 . _ -; name versions like 3.x, v2 or 2026-10.',
    ],
    [
      '--default-version that is not a label',
      (dir: string) => ['serve', '--version', `3.x=${dir}`, '--default-version', '3 x'],
      'knowledge-kit serve: --default-version "3 x": character 2 (" ") is not one of A–Z a–z 0–9 . _ -; name versions like 3.x, v2 or 2026-10.',
    ],
    [
      'the same label twice',
      (dir: string) => ['serve', '--version', `3.x=${dir}`, '--version', `3.x=${dir}`],
      'knowledge-kit serve: --version 3.x is given twice; give each version once, with its own folder.',
    ],
    [
      '--default-version not among the labels',
      (dir: string) => ['mcp', '--version', `3.x=${dir}`, '--default-version', '2.x'],
      'knowledge-kit mcp: --default-version 2.x is not one of the versions given (`3.x`); name one of them, or leave it out for the first.',
    ],
    [
      '--default-version without versions',
      (dir: string) => ['serve', dir, '--default-version', '2.x'],
      'knowledge-kit serve: --default-version names one of the versions given with --version LABEL=FOLDER, and none is given',
    ],
    [
      '--version mixed with a folder argument',
      (dir: string) => ['serve', dir, '--version', `3.x=${dir}`],
      "knowledge-kit serve: --version LABEL=FOLDER names each version's folder: drop the folder argument, or drop --version to read the one folder",
    ],
    [
      '--version mixed with a folder argument (search)',
      (dir: string) => ['search', dir, '--version', `3.x=${dir}`, 'query'],
      "knowledge-kit search: --version LABEL=FOLDER names each version's folder: drop the folder argument",
    ],
    [
      'a label without a folder where versions are served',
      () => ['serve', '--version', '3.x'],
      'knowledge-kit serve: --version takes LABEL=FOLDER, such as `--version 3.x=./docs` (repeat it for each version), not `3.x`.',
    ],
    [
      'two versions to read',
      (dir: string) => [
        'search',
        '--version',
        `3.x=${dir}`,
        '--version',
        '3.x',
        '--version',
        '2.x',
        'q',
      ],
      'knowledge-kit search: --version 3.x and --version 2.x both name the version to read; give one',
    ],
    [
      'a folder version with --database',
      (dir: string) => [
        'search',
        '--database',
        'pglite:nowhere',
        '--kb',
        'k',
        '--version',
        `3.x=${dir}`,
        'q',
      ],
      "knowledge-kit search: --version LABEL=FOLDER names a version's folder; it does not go with --database.",
    ],
  ])('%s', async (_, args, message) => {
    const dir = await folder(version(60, 'gift-cards'));
    const run = await cliInProcess(args(dir));
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.split('\n').filter((line) => line !== '')).toHaveLength(1);
    expect(run.stderr).toContain(message);
  });

  it('--help of each command lists the flags', async () => {
    for (const command of ['serve', 'mcp']) {
      const help = (await cliInProcess([command, '--help'])).stdout;
      expect(help).toContain('--version label=dir');
      expect(help).toContain('--default-version label');
      expect(help).toContain('(default: the first --version)');
    }
    for (const command of ['search', 'read', 'outline'])
      expect((await cliInProcess([command, '--help'])).stdout).toContain('--version label[=dir]');
  });
});
