/**
 * The command line's usage contract, on the built bin: `--help` on every command, `--version`, and exit
 * code 2 with a one-line reason for no command, an unknown command, an unknown option, a missing option
 * value and an extra argument.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { linesOf, requireBuiltCli, runCli, type CliResult } from './helpers/cli.js';

const COMMANDS = ['check', 'outline', 'read', 'search', 'serve', 'mcp'] as const;

/** `--help` and `<command> --help`, run once for the tests that compare with them. */
const helps = new Map<string, CliResult>();
beforeAll(async () => {
  await requireBuiltCli();
  const runs = await Promise.all([['--help'], ...COMMANDS.map((command) => [command, '--help'])].map(async (args) => [args[0]!, await runCli(args)] as const));
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
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^ {2}${command} `, 'm'));
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
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

  it.each(COMMANDS)('%s with an unknown option: exit 2 with one line naming the option and the command --help', async (command) => {
    const result = await runCli([command, '--no-such-option']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(linesOf(result.stderr)).toHaveLength(1);
    expect(result.stderr).toContain('--no-such-option');
    expect(result.stderr).toContain(`knowledge-kit ${command} --help`);
  });

  it('an option without its value and an extra argument: exit 2 with one line each', async () => {
    const [noValue, extra] = await Promise.all([runCli(['check', '--format']), runCli(['outline', 'one', 'two'])]);
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
