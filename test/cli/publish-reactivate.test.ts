/**
 * `publish` says what happened to the active revision: `published` a new one, `unchanged` for the
 * active one's content, `reactivated` for an older kept revision's content (a roll back, which
 * "unchanged" used to hide).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/tempFolders.js';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';
import { freshPgliteFolder } from '../helpers/pglite-folder.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-reactivate-' });

describe('publish of content already published', () => {
  it('unchanged for the active revision, reactivated (naming the replaced one) for an older one', async () => {
    const dir = await folder({ 'guide.md': '# Guide\n\nVersion one.\n' });
    // A fresh database from the template: what the first publish makes, without `initdb`.
    const url = `pglite:${await freshPgliteFolder(await folder())}`;
    const publish = () => cli(['publish', dir, '--database', url, '--kb', 'docs', '--keep', '3']);
    const first = await publish();
    expect(first.code, first.stderr).toBe(0);
    const one = /^published docs at revision ("[^"]+") \(1 page\)\n$/.exec(first.stdout)![1]!;
    expect((await publish()).stdout).toBe(`unchanged docs at revision ${one} (1 page)\n`);
    await writeFile(join(dir, 'guide.md'), '# Guide\n\nVersion two.\n');
    const second = await publish();
    const two = /^published docs at revision ("[^"]+") \(1 page\)\n$/.exec(second.stdout)![1]!;
    expect(two).not.toBe(one);
    await writeFile(join(dir, 'guide.md'), '# Guide\n\nVersion one.\n');
    const back = await publish();
    expect(back.code).toBe(0);
    expect(back.stdout).toBe(
      `reactivated docs at revision ${one}, published earlier with the same content (the active revision was ${two}) (1 page)\n`,
    );
    expect((await publish()).stdout).toBe(`unchanged docs at revision ${one} (1 page)\n`);
  }, 120_000);
});
