/**
 * The command line's usage contract, on the built bin: `--help` on every command, `--version`, and exit
 * code 2 with a one-line reason for no command, an unknown command, an unknown option, a missing option
 * value and an extra argument.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, type CliResult } from '../helpers/cli.js';
import { useTempFolders, writeTree } from '../helpers/tempFolders.js';

const COMMANDS = ['check', 'outline', 'read', 'search', 'serve', 'mcp', 'publish'] as const;

/** `--help` and `<command> --help`, run once for the tests that compare with them. */
const helps = new Map<string, CliResult>();
beforeAll(async () => {
  await requireBuiltCli();
  const runs = await Promise.all(
    [['--help'], ...COMMANDS.map((command) => [command, '--help'])].map(
      async (args) => [args[0]!, await runCli(args)] as const,
    ),
  );
  for (const [name, result] of runs) helps.set(name, result);
});

describe.concurrent('knowledge-kit usage', () => {
  it.each(COMMANDS)('%s --help prints the command usage on stdout and exits 0', (command) => {
    const result = helps.get(command)!;
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Usage: knowledge-kit ${command}`);
    expect(result.stdout).toMatch(/Exit codes: 0 /);
    expect(result.stderr).toBe('');
  });

  it('`help <command>` and `-h` print the same as `<command> --help`', async () => {
    const long = helps.get('read')!;
    const [topic, short] = await Promise.all([runCli(['help', 'read']), runCli(['read', '-h'])]);
    expect(long.code).toBe(0);
    expect(topic).toEqual(long);
    expect(short).toEqual(long);
  });

  it('--help lists every command; --version prints the package version', async () => {
    const help = helps.get('--help')!;
    const version = await runCli(['--version']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage: knowledge-kit <command>');
    for (const command of COMMANDS)
      expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    const pkg = JSON.parse(
      readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    expect(version).toEqual({ code: 0, signal: null, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('no command: exit 2 with the help on stderr and nothing on stdout', async () => {
    const none = await runCli([]);
    expect(none.code).toBe(2);
    expect(none.stdout).toBe('');
    expect(none.stderr).toBe(helps.get('--help')!.stdout);
  });

  it('an unknown command: exit 2 with one line naming it and --help', async () => {
    const result = await runCli(['chekc', '.']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(linesOf(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain('`chekc`');
    expect(result.stderr).toContain('knowledge-kit --help');
  });

  it.each(COMMANDS)(
    '%s with an unknown option: exit 2 with one line naming the option and the command --help',
    async (command) => {
      const result = await runCli([command, '--no-such-option']);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
      expect(result.stderr).toContain('--no-such-option');
      expect(result.stderr).toContain(`knowledge-kit ${command} --help`);
    },
  );

  it('an option without its value and an extra argument: exit 2 with one line each', async () => {
    const [noValue, extra] = await Promise.all([
      runCli(['check', '--format']),
      runCli(['outline', 'one', 'two']),
    ]);
    for (const result of [noValue, extra]) {
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
    }
    expect(noValue.stderr).toContain('--format');
    expect(noValue.stderr).toContain('knowledge-kit check --help');
    expect(extra.stderr).toContain('`two`');
    expect(extra.stderr).toContain('knowledge-kit outline --help');
  });
});

describe.concurrent(
  'knowledge-kit serve and check refuse arguments that would mislead (exit 2, one line)',
  () => {
    const root = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-' });

    it.each([
      { name: 'an empty --id', args: ['--id', ''], says: '--id' },
      { name: 'the --id `..`, which a URL would drop', args: ['--id', '..'], says: '--id' },
      {
        name: 'a --base-path with a `..` segment',
        args: ['--base-path', '/a/../b'],
        says: '--base-path',
      },
      { name: 'a --base-path with a space', args: ['--base-path', '/a b'], says: '--base-path' },
      {
        name: 'a --base-path with an empty segment',
        args: ['--base-path', '//x'],
        says: '--base-path',
      },
      {
        name: 'a --base-path without a leading slash',
        args: ['--base-path', 'x'],
        says: '--base-path',
      },
      { name: 'an empty --host', args: ['--host', ''], says: '--host' },
    ])('serve: $name', async ({ args, says }) => {
      const dir = await root();
      await writeTree(dir, { 'a.md': 'A.\n' });
      const result = await runCli(['serve', dir, '--port', '0', ...args]);
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(linesOf(result.stderr)).toHaveLength(1);
      expect(result.stderr).toContain(says);
    });

    it.each([
      { name: 'a BOM before the token', bytes: [0xef, 0xbb, 0xbf, ...Buffer.from('token\n')] },
      { name: 'a space inside the token', bytes: [...Buffer.from('two words\n')] },
      { name: 'an empty file', bytes: [...Buffer.from('\n')] },
      { name: 'a CRLF ending', bytes: [...Buffer.from('token\r\n')] },
    ])(
      'serve: a token file with $name (the printed `$(cat …)` would send another token)',
      async ({ bytes }) => {
        const dir = await root();
        await writeTree(dir, { 'a.md': 'A.\n', '.token': Uint8Array.from(bytes) });
        const result = await runCli(['serve', dir, '--port', '0', '--token-file', `${dir}/.token`]);
        expect(result.code).toBe(2);
        expect(linesOf(result.stderr)).toHaveLength(1);
        expect(result.stderr).toContain('token file');
      },
    );

    it('check: a dot file named on the command line is refused, not skipped silently', async () => {
      const dir = await root();
      await writeTree(dir, { '.draft.md': '<!-- agent-section:x -->\n' });
      const result = await runCli(['check', '.draft.md'], { cwd: dir });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('`.draft.md` is a dot file');
    });
  },
);
