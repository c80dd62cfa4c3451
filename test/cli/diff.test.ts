/**
 * `knowledge-kit diff`: two versions, each a folder, compared page by page, with planted changes the
 * output must name exactly, and the usage errors of its arguments.
 */
import { describe, expect, it } from 'vitest';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { useTempFolders, type Tree } from '../helpers/tempFolders.js';

const folder = useTempFolders();

const GUIDE = `# Guide

Intro text.

<!-- agent-section:install -->
## Install

Run the installer.

<!-- agent-section:install.windows -->
### Windows

Use the MSI.
<!-- /agent-section:install.windows -->
<!-- /agent-section:install -->

## Usage

Call it.
`;

/** The older version: four pages. */
const OLDER: Tree = {
  'guide.md': GUIDE,
  'faq.md': '---\ntitle: FAQ\n---\n# FAQ\n\n## Why\n\nBecause.\n',
  'old.md': '# Old\n\nGone in the next version.\n',
  'same/page.md': '# Same\n\nUnchanged.\n',
};

/** The newer version, with one change of each kind planted. */
const NEWER: Tree = {
  // A section's own text changed (install.windows), a heading added (Upgrade), Usage unchanged.
  'guide.md': GUIDE.replace('Use the MSI.', 'Use winget.').replace(
    '## Usage',
    '## Upgrade\n\nRun it again.\n\n## Usage',
  ),
  // Only the front matter changed.
  'faq.md': '---\ntitle: Questions\n---\n# FAQ\n\n## Why\n\nBecause.\n',
  'new.md': '# New\n\nAdded.\n',
  'same/page.md': '# Same\n\nUnchanged.\n',
};

async function versions(): Promise<{ older: string; newer: string }> {
  return { older: await folder(OLDER), newer: await folder(NEWER) };
}

/** `knowledge-kit diff --version A=a --version B=b …rest`. */
function diffOf(a: string, b: string, ...rest: string[]) {
  return cliInProcess(['diff', '--version', a, '--version', b, ...rest]);
}

describe('knowledge-kit diff', () => {
  it('names exactly the pages, sections and headings planted as changed (--json)', async () => {
    const { older, newer } = await versions();
    const run = await diffOf(`1.x=${older}`, `2.x=${newer}`, '--json');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      from: '1.x',
      to: '2.x',
      added: ['pages/new.md'],
      removed: ['pages/old.md'],
      changed: [
        {
          path: 'pages/faq.md',
          frontmatterChanged: true,
          sections: { added: [], removed: [], changed: [] },
          headings: { added: [], removed: [], changed: [] },
        },
        {
          path: 'pages/guide.md',
          frontmatterChanged: false,
          sections: { added: [], removed: [], changed: ['install.windows'] },
          headings: { added: ['upgrade'], removed: [], changed: ['windows'] },
        },
      ],
      unchanged: 1,
    });
  });

  it('compares in the order the labels are named: the reverse diff mirrors the forward one', async () => {
    const { older, newer } = await versions();
    const run = await diffOf(`1.x=${older}`, `2.x=${newer}`, '--json', '2.x', '1.x');
    expect(run.code).toBe(0);
    const diff = JSON.parse(run.stdout);
    expect([diff.from, diff.to, diff.added, diff.removed]).toEqual([
      '2.x',
      '1.x',
      ['pages/old.md'],
      ['pages/new.md'],
    ]);
    expect(diff.changed[1].headings).toEqual({
      added: [],
      removed: ['upgrade'],
      changed: ['windows'],
    });
  });

  it('prints a summary line, then + - ~ pages and their parts, for a person', async () => {
    const { older, newer } = await versions();
    const run = await diffOf(`1.x=${older}`, `2.x=${newer}`);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(
      [
        '1.x → 2.x: 1 page added, 1 removed, 2 changed, 1 unchanged',
        '+ pages/new.md',
        '- pages/old.md',
        '~ pages/faq.md (front matter)',
        '~ pages/guide.md',
        '    sections: ~ install.windows',
        '    headings: + upgrade, ~ windows',
        '',
      ].join('\n'),
    );
  });

  it('finds nothing between a folder and itself; --exit-code exits 1 only when versions differ', async () => {
    const { older, newer } = await versions();
    const same = await diffOf(`a=${older}`, `b=${older}`, '--exit-code');
    expect(same.stdout).toBe('a → b: 0 pages added, 0 removed, 0 changed, 4 unchanged\n');
    expect(same.code).toBe(0);
    const differ = await diffOf(`a=${older}`, `b=${newer}`, '--exit-code');
    expect(differ.code).toBe(1);
  });

  it('a folder with problems ends the command as check does (exit 1, the problem printed)', async () => {
    const older = await folder(OLDER);
    const broken = await folder({ 'a.md': '<!-- agent-section:open -->\nNo close.\n' });
    const run = await diffOf(`1=${older}`, `2=${broken}`);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('a.md');
    expect(run.stdout).toBe('');
  });

  describe('usage errors: one line naming the argument and the fix, exit 2', () => {
    const cases: readonly (readonly [string, readonly string[], string])[] = [
      ['no version', [], 'needs two versions, each `--version LABEL=FOLDER`'],
      ['one version', ['--version', 'a=x'], 'needs two versions'],
      [
        'not LABEL=FOLDER',
        ['--version', 'a', '--version', 'b=y'],
        '--version takes LABEL=FOLDER, such as `--version 3.x=./docs` (repeat it for each version), not `a`.',
      ],
      [
        'an empty folder part',
        ['--version', 'a=', '--version', 'b=y'],
        "--version a= names no folder: give the version's folder after `=`, such as `--version a=./docs`.",
      ],
      [
        'an empty label',
        ['--version', '=x', '--version', 'b=y'],
        '--version takes LABEL=FOLDER, such as `--version 3.x=./docs`, not `=x`: the label is missing.',
      ],
      [
        'a folder that does not exist',
        ['--version', 'a=./no-such-folder-here', '--version', 'b=.'],
        "--version a=./no-such-folder-here: no such folder; give the folder of version `a`'s Markdown files.",
      ],
      [
        'a label with a space',
        ['--version', '1 x=a', '--version', 'b=y'],
        '--version "1 x": character 2 (" ") is not one of A–Z a–z 0–9 . _ -; name versions like 3.x, v2 or 2026-10.',
      ],
      [
        'a label over 64 characters',
        ['--version', `${'v'.repeat(65)}=a`, '--version', 'b=y'],
        'at most 64 characters, not 65',
      ],
      [
        'a label twice',
        ['--version', 'a=x', '--version', 'a=y'],
        '--version a is given twice; give each version once, with its own folder.',
      ],
      ['one label named', ['--version', 'a=x', '--version', 'b=y', 'a'], 'name both versions'],
      [
        'three versions, none named',
        ['--version', 'a=x', '--version', 'b=y', '--version', 'c=z'],
        '3 versions are given: name the two to compare',
      ],
      [
        'a label not given',
        ['--version', 'a=x', '--version', 'b=y', 'a', 'c'],
        'no version `c`; the versions given are `a`, `b`.',
      ],
    ];
    for (const [name, args, message] of cases)
      it(name, async () => {
        const run = await cliInProcess(['diff', ...args]);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe('');
        expect(run.stderr.startsWith('knowledge-kit diff: ')).toBe(true);
        expect(run.stderr).toContain(message);
        expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
      });
  });

  it('--help prints the usage and an example that runs', async () => {
    const run = await cliInProcess(['diff', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('knowledge-kit diff --version 2.x=./docs-v2 --version 3.x=./docs');
  });
});
