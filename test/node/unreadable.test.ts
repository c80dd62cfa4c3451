/**
 * A file or a folder the user cannot read is a problem of that entry: the other files load, `check`
 * lists it (exit 1), and a watch goes on serving. One unreadable file used to stop `serve` and `mcp`,
 * and an unreadable folder was skipped in silence (`check`: 0 problems).
 *
 * The tests run as root, which permissions do not stop: the loader runs in a child process as the
 * user `nobody` (the built package in `dist/`, which `npm test` and the global setup build), on a
 * folder whose entries belong to root, with a file of mode 0600 and a folder of mode 0700.
 */
import {
  execFileSync,
  spawn,
  spawnSync,
  type ChildProcessWithoutNullStreams,
} from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI_PATH, requireBuiltCli } from '../helpers/cli.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders();
const NODE_ENTRY = new URL('../../dist/node/index.js', import.meta.url).href;
const NOBODY = { uid: 65534, gid: 65534 };
const canRunAsNobody = process.getuid?.() === 0;

/** A folder nobody may read except for `secret.md` (0600) and `locked/` (0700), all root's. */
async function guardedFolder(extra: Record<string, string> = {}): Promise<string> {
  const dir = await folder({
    'a.md': '# A\n',
    'open/b.md': '# B\n',
    'secret.md': '# Secret\n',
    'locked/inside.md': '# Inside\n',
    ...extra,
  });
  await chmod(dir, 0o755);
  await chmod(join(dir, 'open'), 0o755);
  await chmod(join(dir, 'secret.md'), 0o600);
  await chmod(join(dir, 'locked'), 0o700);
  return dir;
}

/** What a load shows, as the child prints it. */
const SHOW = `const show = (l) => JSON.stringify({
  ids: l.catalog.ids,
  status: Object.fromEntries(Object.entries(l.status).map(([f, s]) => [f, [s.generatedOutputStatus, ...s.issues.map((i) => i.code)]])),
  issues: l.issues.map((i) => [i.code, i.file, i.message]),
});`;

describe.skipIf(!canRunAsNobody)('unreadable files and folders (run as nobody)', () => {
  it('loadKnowledgeFiles: the file is READ_FAILED and unavailable, the folder a READ_FAILED problem; the others load', async () => {
    await requireBuiltCli();
    const dir = await guardedFolder();
    const child = spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { loadKnowledgeFiles } from '${NODE_ENTRY}';\n${SHOW}\nconsole.log(show(await loadKnowledgeFiles(process.argv[1])));`,
        dir,
      ],
      { ...NOBODY, encoding: 'utf8', timeout: 20_000 },
    );
    expect(child.stderr).toBe('');
    const shown = JSON.parse(child.stdout) as {
      ids: string[];
      status: Record<string, string[]>;
      issues: [string, string, string][];
    };
    expect(shown.ids).toEqual(['a', 'open/b']);
    expect(shown.status['secret.md']).toEqual(['unavailable', 'READ_FAILED']);
    expect(shown.issues.map(([code, file]) => [code, file])).toEqual([
      ['READ_FAILED', 'locked'],
      ['READ_FAILED', 'secret.md'],
    ]);
    expect(shown.issues[0]![2]).toBe(
      'locked: loadKnowledgeDirectory cannot read this folder: permission denied (EACCES), so the Markdown files in it are not loaded. Make it readable by the user that runs Knowledge Kit, or exclude it.',
    );
    expect(shown.issues[1]![2]).toBe(
      'secret.md: loadKnowledgeDirectory cannot read it: permission denied (EACCES). Make it readable by the user that runs Knowledge Kit, or exclude it.',
    );
  });

  it('`check` lists both with the other problems and exits 1', async () => {
    await requireBuiltCli();
    const dir = await guardedFolder();
    const child = spawnSync(process.execPath, [CLI_PATH, 'check', dir], {
      ...NOBODY,
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(child.status).toBe(1);
    const lines = `${child.stdout}${child.stderr}`;
    expect(lines).toMatch(/locked.*READ_FAILED/);
    expect(lines).toMatch(/secret\.md.*READ_FAILED/);
    expect(lines).not.toMatch(/\n\s+at /);
  });

  it('under watch, a file over the limit, an unreadable file and a FIFO added: the other files are served and edits reload', async () => {
    await requireBuiltCli();
    const dir = await guardedFolder({ 'big.md': `# Big\n\n${'x'.repeat(2_000)}\n` });
    const child: ChildProcessWithoutNullStreams = spawn(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `import { watchKnowledgeFiles } from '${NODE_ENTRY}';\n${SHOW}\nconst w = await watchKnowledgeFiles(process.argv[1], { debounceMs: 50, maxFileBytes: 1000 }, (c) => console.log(c.ok ? show(c.loaded) : JSON.stringify({ error: c.error.message })));\nconsole.log(show(w.current));`,
        dir,
      ],
      { ...NOBODY, stdio: 'pipe' },
    );
    let out = '';
    let err = '';
    const waiters = new Set<() => void>();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      for (const w of [...waiters]) w();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
    type Shown = { ids?: string[]; status?: Record<string, string[]>; issues?: string[][] };
    const lineWhere = (accept: (shown: Shown) => boolean): Promise<Shown> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`no such line in:\n${out}\n${err}`)),
          20_000,
        );
        const check = (): void => {
          for (const line of out.split('\n')) {
            if (line === '') continue;
            const shown = JSON.parse(line) as Shown;
            if (!accept(shown)) continue;
            waiters.delete(check);
            clearTimeout(timer);
            resolve(shown);
            return;
          }
        };
        waiters.add(check);
        check();
      });
    try {
      const first = await lineWhere(() => true);
      expect(first.ids).toEqual(['a', 'open/b']);
      expect(first.status!['big.md']).toEqual(['unavailable', 'REFUSED_FILE']);
      expect(first.status!['secret.md']).toEqual(['unavailable', 'READ_FAILED']);

      execFileSync('mkfifo', ['-m', '644', join(dir, 'pipe.md')]);
      await writeFile(join(dir, 'c.md'), '# C\n');
      await chmod(join(dir, 'c.md'), 0o644);
      const later = await lineWhere((s) => s.ids?.includes('c') === true);
      expect(later.ids).toEqual(['a', 'c', 'open/b']);
      expect(later.issues!.map(([code, file]) => `${code} ${file}`)).toEqual([
        'REFUSED_FILE big.md',
        'READ_FAILED locked',
        'REFUSED_FILE pipe.md',
        'READ_FAILED secret.md',
      ]);
      expect(err).toBe('');
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
