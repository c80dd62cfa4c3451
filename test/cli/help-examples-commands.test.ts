/**
 * Every example a command's `--help` prints works as printed, found in the help text itself (so an
 * example added later is run too), on a copy of the bundled example knowledge:
 *
 * - command lines: an indented line after a blank line (or `$ knowledge-kit …`), or a span in
 *   backticks, that starts with `knowledge-kit` and names no placeholder (`<dir>`, `[--json]`, `…`).
 *   Each runs as a child process in a folder of its own holding a copy of `examples/`, where each
 *   `./folder` it names (not an `--out`) is a copy of the example knowledge. A `--database` URL other
 *   than `pglite:` becomes a PGlite folder, and the knowledge base a database example reads (its `--kb`)
 *   is published there first. `serve` gets `--port 0` (a fixed port may be taken) and is stopped once
 *   it prints its URL; `mcp` is connected to and lists its tools.
 * - option values: `such as …` in an option's help. Every command runs once with all of its options'
 *   examples (a JSON object is written to a file: the option names a file holding it), on the example
 *   knowledge with a copy in each folder a glob example names; and `check` shows what each glob
 *   example keeps.
 *
 * - the README's command lines: each `knowledge-kit …` line of its `sh` blocks, run the same way.
 *
 * With `KK_CLI_PATH` naming an installed bin (CI installs the packed tarball into a scratch app), the
 * help texts and every command line come from that bin: the examples work as an installed package
 * prints them.
 *
 * `help-examples.test.ts` checks what the `serve` and `mcp` examples do (a base path, an access file,
 * an MCP client configuration). The two runs are long on a loaded machine (a dozen commands, each
 * loading the knowledge): 240 s each.
 */
import { cp, mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli, runCli, useRunningClis } from '../helpers/cli.js';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';
import { freshPgliteFolder } from '../helpers/pglite-folder.js';
import { startServe } from '../helpers/cli-serve.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const EXAMPLES = new URL('../../examples/', import.meta.url).pathname;
const KNOWLEDGE = join(EXAMPLES, 'knowledge');

const tempRoot = useTempFolders({ removeAfter: 'all', prefix: 'kk-help-run-' });
useRunningClis();
useMcpConnections();
beforeAll(requireBuiltCli);

/** The words of a command line as a POSIX shell splits it (single and double quotes, no expansion). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let word: string | undefined;
  let quote = '';
  for (const char of line) {
    if (quote !== '') {
      if (char === quote) quote = '';
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      word ??= '';
    } else if (char === ' ' || char === '\t') {
      if (word !== undefined) words.push(word);
      word = undefined;
    } else word = (word ?? '') + char;
  }
  if (word !== undefined) words.push(word);
  return words;
}

const PLACEHOLDER = /[<>[\]…|]/;

/** The `knowledge-kit …` command lines of a help text that are examples, not usage lines. */
function commandExamples(help: string): string[] {
  const found: string[] = [];
  let previousBlankOrExample = false;
  for (const line of help.split('\n')) {
    const trimmed = line.trimStart();
    const dollar = trimmed.startsWith('$ ');
    const text = (dollar ? trimmed.slice(2) : trimmed).replace(/^npx /, '');
    const isExample: boolean =
      text.startsWith('knowledge-kit ') &&
      (dollar || (line !== trimmed && previousBlankOrExample)) &&
      !PLACEHOLDER.test(text);
    if (isExample) found.push(text.replace(/\s+#\s.*$/, ''));
    for (const m of line.matchAll(/`(?:npx )?(knowledge-kit [^`]+)`/g))
      if (!PLACEHOLDER.test(m[1]!)) found.push(m[1]!);
    previousBlankOrExample = trimmed === '' || isExample;
  }
  return found;
}

/** Each option's `such as …` example value, from the rows of a help text's option list. */
function optionExamples(help: string): { readonly flag: string; readonly value: string }[] {
  const rows: string[] = [];
  const lines = help.split('\n');
  for (const line of lines.slice(lines.indexOf('Options:') + 1)) {
    if (line.trim() === '') break;
    if (/^ {2}-/.test(line)) rows.push(line.trim());
    else if (rows.length > 0) rows[rows.length - 1] += ` ${line.trim()}`;
  }
  return rows.flatMap((row) => {
    const flag = /^--[a-z-]+/.exec(row)?.[0];
    if (flag === undefined) return [];
    return [...row.matchAll(/such as (`[^`]+`|\{[^}]*\}|\S+)/g)].map((m) => ({
      flag,
      value: m[1]!.replace(/^`|`$/g, '').replace(/[);,.]$/, ''),
    }));
  });
}

/** The commands the top-level help lists. */
async function commandNames(): Promise<string[]> {
  const { stdout } = await cliInProcess(['--help']);
  const lines = stdout.split('\n');
  return lines
    .slice(lines.indexOf('Commands:') + 1)
    .map((line) => /^ {2}([a-z][a-z-]*)\b/.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
}

/** `knowledge-kit <command> --help` (of the installed bin when `KK_CLI_PATH` names one). */
async function helpOf(command: string): Promise<string> {
  const args = [command, '--help'];
  const run = process.env['KK_CLI_PATH'] ? await runCli(args) : await cliInProcess(args);
  expect(run.code, `${command} --help`).toBe(0);
  return run.stdout;
}

/** Runs one command-line example, as printed, in a folder of its own. */
async function runExample(example: string): Promise<void> {
  const cwd = await tempRoot();
  await cp(EXAMPLES, join(cwd, 'examples'), { recursive: true });
  const args = shellWords(example).slice(1);
  const command = args[0]!;
  for (const [i, word] of args.entries()) {
    const path = word.includes('=./') ? word.slice(word.indexOf('=') + 1) : word;
    if (/^\.\.?\//.test(path) && args[i - 1] !== '--out' && !existsSync(join(cwd, path)))
      await cp(KNOWLEDGE, join(cwd, path), { recursive: true });
  }
  const database = args.indexOf('--database');
  if (database >= 0) {
    if (!args[database + 1]!.startsWith('pglite:'))
      args[database + 1] = `pglite:${join(cwd, 'database')}`;
    const given = args[database + 1]!.slice('pglite:'.length);
    const folder = isAbsolute(given) ? given : join(cwd, given);
    // A fresh database from the template: what the first open makes, without `initdb`.
    if (!existsSync(folder)) await freshPgliteFolder(folder);
    const kb = args.indexOf('--kb');
    if (command !== 'publish') {
      const dbUrl = `pglite:${folder}`;
      const kbId = kb >= 0 ? args[kb + 1]! : 'knowledge';
      const published = await cliInProcess([
        'publish',
        KNOWLEDGE,
        '--database',
        dbUrl,
        '--kb',
        kbId,
      ]);
      expect(published.code, published.stderr).toBe(0);
    }
  }
  if (command === 'serve') {
    const port = args.indexOf('--port');
    if (port >= 0) args[port + 1] = '0';
    else args.push('--port', '0');
    const { cli } = await startServe(args.slice(1), { cwd }, 30_000);
    cli.child.kill('SIGTERM');
    expect((await cli.exited).code, example).toBe(0);
  } else if (command === 'mcp') {
    const mcp = await connectMcp(args.slice(1), cwd);
    const { tools } = await mcp.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('search_files');
    await mcp.close();
  } else {
    const run = await runCli(args, { cwd, timeoutMs: 60_000 });
    expect(run.code, `${example}\nstdout:\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(0);
  }
}

/** How each command runs on a folder (and a scratch folder), before the options under test. */
const BASE: Readonly<Record<string, (dir: string, scratch: string) => string[]>> = {
  check: (dir) => ['check', dir],
  outline: (dir) => ['outline', dir],
  read: (dir) => ['read', dir, 'anchored-markdown'],
  search: (dir) => ['search', dir, 'anchors'],
  serve: (dir) => ['serve', dir, '--port', '0', '--quiet'],
  mcp: (dir) => ['mcp', dir],
  publish: (dir, scratch) => ['publish', dir, '--database', `pglite:${join(scratch, 'database')}`],
  export: (dir, scratch) => ['export', dir, '--out', join(scratch, 'out')],
  diff: (dir) => ['diff', '--version', `a=${dir}`, '--version', `b=${dir}`],
};

describe('the examples --help prints work as printed', () => {
  it('finds the command lines and option values of a help text', () => {
    const help = [
      'Usage: knowledge-kit x <dir> [--json]',
      '       knowledge-kit x --database <url>',
      '',
      '  knowledge-kit diff --version 2.x=./a --version "3 x"=./b  # compare',
      '  knowledge-kit check .',
      'Prose: `knowledge-kit check` stays strict; see knowledge-kit publish.',
      '',
      'Options:',
      '  --exclude glob  leave out (repeatable; such as',
      '                  `drafts/**`); more',
      '  --access-file f a JSON object, such as {"s3cret": ["handbook"]}; other',
      '  -h, --help      this help',
      '',
      'Exit codes: 2 usage error (such as a port in use).',
    ].join('\n');
    expect(commandExamples(help)).toEqual([
      'knowledge-kit diff --version 2.x=./a --version "3 x"=./b',
      'knowledge-kit check .',
      'knowledge-kit check',
    ]);
    expect(shellWords('knowledge-kit diff --version "3 x"=./b \'a b\'')).toEqual([
      'knowledge-kit',
      'diff',
      '--version',
      '3 x=./b',
      'a b',
    ]);
    expect(optionExamples(help)).toEqual([
      { flag: '--exclude', value: 'drafts/**' },
      { flag: '--access-file', value: '{"s3cret": ["handbook"]}' },
    ]);
  });

  it('every command line printed by a --help runs as printed', async () => {
    const examples: string[] = [];
    for (const command of await commandNames())
      examples.push(...commandExamples(await helpOf(command)));
    // At least the diff example; each one found is run.
    expect(examples).toContain(
      'knowledge-kit diff --version 2.x=./docs-v2 --version 3.x=./docs 2.x 3.x',
    );
    for (const example of new Set(examples)) await runExample(example);
  }, 240_000);

  it('every `knowledge-kit` command line the README prints runs as printed', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const lines: string[] = [];
    let inShell = false;
    for (const line of readme.split('\n')) {
      if (line.startsWith('```')) inShell = line === '```sh';
      else if (inShell && /^(npx )?knowledge-kit /.test(line))
        lines.push(line.replace(/^npx /, '').replace(/\s+#\s.*$/, ''));
    }
    // The quick tour's six commands at least; each one found is run.
    expect(lines).toContain('knowledge-kit search examples/knowledge "stale cursor"');
    expect(lines.length).toBeGreaterThanOrEqual(6);
    for (const line of lines) await runExample(line);
  }, 240_000);

  it('every option example works: each command runs with all of its options’ examples', async () => {
    const commands = await commandNames();
    const byCommand = new Map<string, { flag: string; value: string }[]>();
    for (const command of commands) byCommand.set(command, optionExamples(await helpOf(command)));
    const globs = [...byCommand.values()]
      .flat()
      .filter(({ flag }) => flag === '--include' || flag === '--exclude');
    expect(globs.length).toBeGreaterThan(0);
    // The example knowledge, and a copy of it in each folder a glob example names.
    const root = await tempRoot();
    const dir = join(root, 'handbook');
    await cp(KNOWLEDGE, dir, { recursive: true });
    const folders = new Set(globs.map(({ value }) => value.split('/')[0]!));
    for (const folder of folders) await cp(KNOWLEDGE, join(dir, folder), { recursive: true });
    const pages = (await readdir(KNOWLEDGE)).filter((name) => name.endsWith('.md')).length;
    const filesOf = async (args: readonly string[]): Promise<number> => {
      const run = await cliInProcess(['check', dir, '--format', 'json', ...args]);
      expect(run.code, run.stdout + run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { files: number }).files;
    };
    const all = await filesOf([]);
    expect(all).toBe(pages * (folders.size + 1));
    for (const { flag, value } of new Map(globs.map((g) => [`${g.flag} ${g.value}`, g])).values())
      expect(await filesOf([flag, value]), `check ${flag} ${value}`).toBe(
        flag === '--include' ? pages : all - pages,
      );

    for (const command of commands) {
      const options = byCommand.get(command)!;
      if (options.length === 0) continue;
      const base = BASE[command];
      expect(base, `${command}: add how it runs on a folder to BASE`).toBeDefined();
      const scratch = await tempRoot();
      await mkdir(join(scratch, 'files'));
      const args = base!(dir, scratch);
      // A database it names: a fresh one from the template (what its first open makes, sooner).
      const database = args.indexOf('--database');
      if (database >= 0) await freshPgliteFolder(args[database + 1]!.slice('pglite:'.length));
      for (const [i, { flag, value }] of options.entries()) {
        if (value.startsWith('{')) {
          const file = join(scratch, 'files', `${i}.json`);
          await writeFile(file, value);
          args.push(flag, file);
        } else args.push(flag, value);
      }
      // With an --include example, only the files under its folder are loaded.
      if (command === 'read' && options.some(({ flag }) => flag === '--include'))
        args[2] = `${globs.find(({ flag }) => flag === '--include')!.value.split('/')[0]}/anchored-markdown`;
      const shown = args.join(' ');
      if (command === 'serve') {
        const { cli } = await startServe(args.slice(1), {}, 30_000);
        cli.child.kill('SIGTERM');
        expect((await cli.exited).code, shown).toBe(0);
      } else if (command === 'mcp') {
        const mcp = await connectMcp(args.slice(1));
        const { tools } = await mcp.client.listTools();
        expect(
          tools.map((tool) => tool.name),
          shown,
        ).toContain('search_files');
        await mcp.close();
      } else {
        const run = await cliInProcess(args);
        expect(run.code, `${shown}\n${run.stdout}${run.stderr}`).toBe(0);
      }
    }
  }, 240_000);
});
