/**
 * One process at a time on a PGlite data folder: `publish` beside a running `serve --database
 * pglite:DIR` used to say `published` and lose the revision (or corrupt the folder); now the second
 * opener is refused in one line naming the holder, before PGlite touches the folder, and a lock left by
 * a process that is gone is taken over.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/cli/openDatabase.js';
import { PGLITE_LOCK_FILE } from '../../src/cli/pgliteLock.js';
import { listKnowledgeBases } from '../../src/postgres/index.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';

const folder = useTempFolders({ prefix: 'kk-pglite-lock-' });

/** Exit 2 with one line naming `pid` and what to do instead, and no stack trace. */
function expectRefused(
  result: { code: number; stdout: string; stderr: string },
  pid: number,
  data: string,
): void {
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.endsWith('\n')).toBe(true);
  expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(result.stderr).not.toMatch(/\n\s+at /);
  expect(result.stderr).toMatch(
    new RegExp(`^knowledge-kit publish: the PGlite folder \`[^\`]*\` is in use by process ${pid} `),
  );
  expect(result.stderr).toContain(data);
  expect(result.stderr).toContain('Publish before serving');
  expect(result.stderr).toContain('postgres://');
}

const lockOf = (pid: number) =>
  `${JSON.stringify({ pid, host: hostname(), command: 'knowledge-kit serve', since: '2026-01-01T00:00:00.000Z' })}\n`;

describe('a PGlite folder is opened by one process at a time', () => {
  it('a live holder in another process: `publish` exits 2 in one line naming its PID, and leaves its lock', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const data = await folder();
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      writeFileSync(join(data, PGLITE_LOCK_FILE), lockOf(holder.pid!));
      const result = await cli(['publish', dir, '--database', `pglite:${data}`, '--kb', 'a']);
      expectRefused(result, holder.pid!, data);
      expect(result.stderr).toContain('(knowledge-kit serve, since 2026-01-01T00:00:00.000Z)');
      expect(readFileSync(join(data, PGLITE_LOCK_FILE), 'utf8')).toBe(lockOf(holder.pid!));
      // PGlite never ran on the folder: nothing but the lock is in it.
      expect(existsSync(join(data, 'PG_VERSION'))).toBe(false);
    } finally {
      holder.kill();
    }
  });

  it('`serve` holds it: `publish` is refused; once closed, `publish` runs; a dead holder`s lock is taken over', async () => {
    const dir = await folder({ 'a.md': '# A\n' });
    const data = await folder();
    const url = `pglite:${data}`;
    const served = await openDatabase('serve', url);
    let closed = false;
    try {
      const held = JSON.parse(readFileSync(join(data, PGLITE_LOCK_FILE), 'utf8')) as {
        pid: number;
        command: string;
      };
      expect(held).toMatchObject({ pid: process.pid, command: 'knowledge-kit serve' });
      expectRefused(await cli(['publish', dir, '--database', url, '--kb', 'a']), process.pid, data);
      await served.close();
      closed = true;
      expect(existsSync(join(data, PGLITE_LOCK_FILE))).toBe(false);

      // A process that is gone (killed, crashed) left its lock: the next opener takes it over.
      const dead = spawnSync(
        process.execPath,
        ['-e', 'process.stdout.write(String(process.pid))'],
        {
          encoding: 'utf8',
        },
      );
      writeFileSync(join(data, PGLITE_LOCK_FILE), lockOf(Number(dead.stdout)));
      const published = await cli(['publish', dir, '--database', url, '--kb', 'a']);
      expect(published.stderr).toBe('');
      expect(published.code).toBe(0);
      expect(published.stdout).toMatch(/^published a at revision /);
      expect(existsSync(join(data, PGLITE_LOCK_FILE))).toBe(false);
    } finally {
      if (!closed) await served.close();
    }
    // The folder reads back.
    const db = new PGlite(data);
    try {
      expect((await listKnowledgeBases(db)).map((kb) => kb.id)).toEqual(['a']);
    } finally {
      await db.close();
    }
  }, 180_000);
});
