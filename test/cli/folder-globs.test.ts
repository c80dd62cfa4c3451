/**
 * `--include GLOB` and `--exclude GLOB` (repeatable) on every command that loads a folder, from the one
 * option table; and the one-line error of a folder with no Markdown file (exit 2, naming the folder,
 * the extensions and the globs that applied), for an empty folder and for globs that empty one, while
 * a folder of `.mdx` pages loads. In process (`runCli`), as the commands' own tests run them.
 */
import { describe, expect, it } from 'vitest';
import { readdir } from 'node:fs/promises';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders({ prefix: 'kk-globs-' });

/** Every command that loads a folder, with the arguments it needs besides the folder. */
const COMMANDS: readonly (readonly [string, (dir: string) => string[]])[] = [
  ['check', (dir) => ['check', dir]],
  ['outline', (dir) => ['outline', dir]],
  ['read', (dir) => ['read', dir, 'guide']],
  ['search', (dir) => ['search', dir, 'install']],
  ['serve', (dir) => ['serve', dir, '--port', '0', '--quiet']],
  ['mcp', (dir) => ['mcp', dir]],
  ['export', (dir) => ['export', dir, '--out', `${dir}-bundle`]],
  ['publish', (dir) => ['publish', dir, '--database', `pglite:${dir}-never-opened`]],
];

const TREE = {
  'guide.md': '# Guide\n\nInstall the kit.\n',
  'drafts/wip.md': '# Work in progress\n\nInstall later.\n',
  'zh/guide.md': '# 指南\n\nInstall 安装.\n',
};

describe('--include and --exclude', () => {
  it('every command that loads a folder lists them in --help, from the option table', async () => {
    for (const [command] of COMMANDS) {
      const { code, stdout } = await cli([command, '--help']);
      expect(code, command).toBe(0);
      expect(stdout, command).toMatch(/--include glob\s+load only the files this glob matches/);
      expect(stdout, command).toMatch(/--exclude glob\s+leave out the files or folders/);
      expect(stdout.split('\n')[0], command).toContain('[--include glob] [--exclude glob]');
    }
  });

  it('an empty folder is one line, exit 2, for every command: the folder, the extensions, the globs', async () => {
    const dir = await folder({ 'notes.txt': 'not Markdown\n' });
    for (const [command, argv] of COMMANDS) {
      const { code, stdout, stderr } = await cli(argv(dir));
      expect({ code, stdout }, command).toEqual({ code: 2, stdout: '' });
      expect(stderr, command).toBe(
        `knowledge-kit ${command}: folder \`${dir}\` has no Markdown file to load: no file ending in .md, .mdx, .markdown matches the default globs \`**/*.md\`, \`**/*.mdx\`, \`**/*.markdown\` (dot folders and node_modules are always left out). Check the folder and the globs.\n`,
      );
    }
  });

  it('globs that leave no file are the same line naming them, for every command', async () => {
    const dir = await folder(TREE);
    for (const [command, argv] of COMMANDS) {
      const { code, stderr } = await cli([
        ...argv(dir),
        '--include',
        'docs/**',
        '--include',
        'guide.md',
        '--exclude',
        'guide.md',
      ]);
      expect(code, command).toBe(2);
      expect(stderr, command).toBe(
        `knowledge-kit ${command}: folder \`${dir}\` has no Markdown file to load: no file ending in .md, .mdx, .markdown matches include \`docs/**\`, \`guide.md\` without exclude \`guide.md\` (dot folders and node_modules are always left out). Check the folder and the globs.\n`,
      );
    }
    // Exclude alone, leaving nothing.
    const { code, stderr } = await cli(['outline', dir, '--exclude', '**']);
    expect(code).toBe(2);
    expect(stderr).toMatch(/matches the default globs .* without exclude `\*\*`/);
  });

  it('a folder of .mdx pages loads for every command that reads it', async () => {
    const dir = await folder({ 'guide.mdx': '# Guide\n\nInstall the kit.\n' });
    const checked = await cli(['check', dir]);
    expect(checked).toEqual({ code: 0, stdout: '1 file, 0 sections, 0 problems\n', stderr: '' });
    const outline = await cli(['outline', dir, '--json']);
    expect(outline.code).toBe(0);
    expect(
      (JSON.parse(outline.stdout) as { documents: { id: string; file: string }[] }).documents.map(
        (d) => [d.id, d.file],
      ),
    ).toEqual([['guide', 'guide.mdx']]);
    const search = await cli(['search', dir, 'install', '--json']);
    expect(search.code).toBe(0);
    expect((JSON.parse(search.stdout) as { items: { path: string }[] }).items[0]!.path).toBe(
      'pages/guide.mdx',
    );
    const read = await cli(['read', dir, 'guide']);
    expect(read.code).toBe(0);
    expect(read.stdout).toContain('Install the kit.');
  });

  it('--include narrows and --exclude removes, repeatable, as the loader’s globs', async () => {
    const dir = await folder(TREE);
    const ids = async (argv: string[]) => {
      const { code, stdout, stderr } = await cli(['outline', dir, '--json', ...argv]);
      expect(code, stderr).toBe(0);
      return (JSON.parse(stdout) as { documents: { id: string }[] }).documents.map((d) => d.id);
    };
    expect(await ids([])).toEqual(['drafts/wip', 'guide', 'zh/guide']);
    expect(await ids(['--exclude', 'drafts/**'])).toEqual(['guide', 'zh/guide']);
    expect(await ids(['--exclude', 'drafts/**', '--exclude', 'zh/**'])).toEqual(['guide']);
    expect(await ids(['--include', 'zh/**'])).toEqual(['zh/guide']);
    expect(await ids(['--include', 'zh/**', '--include', 'guide.md'])).toEqual([
      'guide',
      'zh/guide',
    ]);
    // search: the excluded page is no candidate, and the read command printed repeats the globs.
    const search = await cli([
      'search',
      dir,
      'install later',
      '--exclude',
      'drafts/**',
      '--max-chars',
      '500',
    ]);
    expect(search.code).toBe(0);
    expect(search.stdout).not.toContain('drafts/wip');
    expect(search.stdout).toMatch(
      new RegExp(`knowledge-kit read '?${dir}'? --exclude 'drafts/\\*\\*' `),
    );
    // read: an excluded document is unknown.
    const read = await cli(['read', dir, 'drafts/wip', '--exclude', 'drafts/**']);
    expect(read.code).toBe(2);
    expect(read.stderr).toMatch(/drafts\/wip/);
  });

  it('check --exclude leaves a broken file out; export --include writes only the pages included', async () => {
    const dir = await folder({
      ...TREE,
      'drafts/broken.md': '<!-- agent-section:a -->\nNo close.\n',
    });
    const broken = await cli(['check', dir]);
    expect(broken.code).toBe(1);
    expect(await cli(['check', dir, '--exclude', 'drafts/**'])).toEqual({
      code: 0,
      stdout: '2 files, 0 sections, 0 problems\n',
      stderr: '',
    });
    const out = `${dir}-bundle`;
    const exported = await cli(['export', dir, '--out', out, '--include', 'zh/**']);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toMatch(/: 1 page, /);
    expect(await readdir(`${out}/pages/zh`)).toEqual(['guide.md']);
  });

  it('they read a folder: with --database they are a usage error', async () => {
    for (const command of ['outline', 'search', 'read', 'mcp', 'serve']) {
      const argv =
        command === 'serve'
          ? ['serve', '--database', 'pglite:/nonexistent', '--include', '*.md']
          : [command, '--database', 'pglite:/nonexistent', '--kb', 'x', '--exclude', 'a/**'];
      const { code, stderr } = await cli(argv);
      expect(code, command).toBe(2);
      expect(stderr, command).toMatch(
        new RegExp(
          `^knowledge-kit ${command}: --(include|exclude) reads a folder; it does not go with --database`,
        ),
      );
    }
  });
});
