/**
 * `knowledge-kit export --version LABEL=FOLDER … --out OUT`: the folders it writes, the usage errors
 * of its arguments (each message naming the flag and the fix, nothing written), an earlier export
 * updated; and the one parser of `--version`/`--default-version` with its invariants.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseVersionsFile, versionsFileText } from '../../src/agent/static/versionsFile.js';
import { versionLabelProblem } from '../../src/agent/versions/label.js';
import { readVersionFlags } from '../../src/cli/versions.js';
import { cliInProcess } from '../helpers/cli-inProcess.js';
import { useTempFolders, type Tree } from '../helpers/tempFolders.js';

const folder = useTempFolders({ prefix: 'kk-export-versions-' });

const ONE: Tree = { 'guide.md': '# Guide\n\nVersion one.\n' };
const TWO: Tree = { 'guide.md': '# Guide\n\nVersion two.\n', 'new.md': '# New\n\nAdded.\n' };

/** `knowledge-kit export …args`. */
const exportOf = (...args: string[]) => cliInProcess(['export', ...args]);

describe('knowledge-kit export --version', () => {
  it('writes versions/<label>/ for each version and versions.json, and says so', async () => {
    const [one, two, out] = [await folder(ONE), await folder(TWO), join(await folder(), 'kb')];
    const run = await exportOf('--version', `1=${one}`, '--version', `2=${two}`, '--out', out);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^exported \S+ version 1 at revision "[^"]+" to .*1 page, /m);
    expect(run.stdout).toMatch(/^exported \S+ version 2 at revision "[^"]+" to .*2 pages, /m);
    expect(run.stdout).toContain(`wrote ${join(out, 'versions.json')}: 2 versions, default 1\n`);
    expect((await readdir(join(out, 'versions'))).sort()).toEqual(['1', '2']);
    const file = JSON.parse(await readFile(join(out, 'versions.json'), 'utf8'));
    // No --default-version: the first version given is the default.
    expect([file.default, file.versions.map((x: { version: string }) => x.version)]).toEqual([
      '1',
      ['1', '2'],
    ]);
  });

  it("gives each version's llms.txt links under --base-url's versions/<label>/", async () => {
    const [one, out] = [await folder(ONE), join(await folder(), 'kb')];
    const args = ['--version', `v1=${one}`, '--base-url', 'https://example.com/kb', '--out', out];
    expect((await exportOf(...args)).code).toBe(0);
    const llms = await readFile(join(out, 'versions', 'v1', 'llms.txt'), 'utf8');
    expect(llms).toContain('](https://example.com/kb/versions/v1/pages/guide.md)');
  });

  it('into an earlier export: rewrites what changed and removes a version no longer given', async () => {
    const [one, two, out] = [await folder(ONE), await folder(TWO), join(await folder(), 'kb')];
    const first = await exportOf(
      ...['--id', 'docs', '--version', `a=${one}`, '--version', `b=${two}`, '--out', out],
    );
    expect(first.code).toBe(0);
    const again = await exportOf('--id', 'docs', '--version', `b=${two}`, '--out', out);
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/version b .* 0 files written/);
    expect(again.stdout).toContain('1 version, default b; removed a\n');
    expect(await readdir(join(out, 'versions'))).toEqual(['b']);
  });

  it('refuses each bad argument with exit 2, a message naming it, and nothing written', async () => {
    const one = await folder(ONE);
    const out = join(await folder(), 'kb');
    const cases: [string[], RegExp][] = [
      [
        ['--version', `3 x=${one}`],
        /^knowledge-kit export: --version "3 x": character 2 \(" "\) is not one of A–Z a–z 0–9 \. _ -; name versions like 3\.x, v2 or 2026-10\.$/,
      ],
      [
        ['--version', `..=${one}`],
        /^knowledge-kit export: --version "\.\.": a version label is not `\.\.`; name versions like 3\.x, v2 or 2026-10\.$/,
      ],
      [
        ['--version', `1=${one}`, '--version', `1=${one}`],
        /^knowledge-kit export: --version 1 is given twice; give each version once, with its own folder\.$/,
      ],
      [
        ['--version', '1='],
        /^knowledge-kit export: --version 1= names no folder: give the version's folder after `=`, such as `--version 1=\.\/docs`\.$/,
      ],
      [
        ['--version', `=${one}`],
        /^knowledge-kit export: --version takes LABEL=FOLDER, such as `--version 3\.x=\.\/docs`, not `=.*`: the label is missing\.$/,
      ],
      [
        ['--version', '1'],
        /^knowledge-kit export: --version takes LABEL=FOLDER, such as `--version 3\.x=\.\/docs` \(repeat it for each version\), not `1`\.$/,
      ],
      [
        ['--version', `1=${one}/missing`],
        /^knowledge-kit export: --version 1=.*missing: no such folder; give the folder of version `1`'s Markdown files\.$/,
      ],
      [
        ['--version', `1=${one}/guide.md`],
        /^knowledge-kit export: --version 1=.*guide\.md: is not a folder; give the folder of version `1`'s Markdown files\.$/,
      ],
      [
        ['--version', `1=${one}`, '--default-version', '2'],
        /^knowledge-kit export: --default-version 2 is not one of the versions given \(`1`\); name one of them, or leave it out for the first\.$/,
      ],
      [
        ['--version', `1=${one}`, '--default-version', '..'],
        /^knowledge-kit export: --default-version "\.\.": a version label is not `\.\.`; name versions like 3\.x, v2 or 2026-10\.$/,
      ],
      [
        ['--default-version', '2', one],
        /^knowledge-kit export: --default-version names one of the versions given with --version LABEL=FOLDER, and none is given; such as `--version 3\.x=\.\/docs --version 2\.x=\.\/docs-v2 --default-version 3\.x`\.$/,
      ],
      [
        ['--version', `1=${one}`, one],
        /^knowledge-kit export: --version LABEL=FOLDER names each version's folder: drop the folder argument, or drop --version to read the one folder \(such as `knowledge-kit export --version 3\.x=\.\/docs --version 2\.x=\.\/docs-v2 --out \.\/public\/kb`\)\.$/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await exportOf(...args, '--out', out);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr.trim(), args.join(' ')).toMatch(message);
    }
    const noOut = await exportOf('--version', `1=${one}`);
    expect(noOut.code).toBe(2);
    expect(noOut.stderr).toMatch(/^knowledge-kit export: needs --out, the folder to write/);
    await expect(readdir(out)).rejects.toThrow();
  });

  it('refuses a --base-url that is not an absolute URL, with the version flags or without, writing nothing', async () => {
    const one = await folder(ONE);
    const out = join(await folder(), 'kb');
    const plain = await exportOf(one, '--base-url', 'kb/', '--out', out);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toBe(
      'knowledge-kit export: --base-url "kb/" is not an absolute URL; pass one such as https://example.com/kb/.\n',
    );
    const both = await exportOf('--version', 'bad label=x', '--base-url', 'kb/', '--out', out);
    expect(both.code).toBe(2);
    expect(both.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^knowledge-kit export: --version "bad label": /),
      'knowledge-kit export: --base-url "kb/" is not an absolute URL; pass one such as https://example.com/kb/.',
    ]);
    await expect(readdir(out)).rejects.toThrow();
  });

  it('lists every problem of the flags at once', async () => {
    const run = await exportOf('--version', 'bad label=x', '--version', 'y', '--out', 'o');
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^knowledge-kit export: --version "bad label": character 4/),
      'knowledge-kit export: --version takes LABEL=FOLDER, such as `--version 3.x=./docs` (repeat it for each version), not `y`.',
    ]);
  });

  it('lists every missing folder at once', async () => {
    const run = await exportOf('--version', 'a=./no-a', '--version', 'b=./no-b', '--out', 'o');
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([
      "knowledge-kit export: --version a=./no-a: no such folder; give the folder of version `a`'s Markdown files.",
      "knowledge-kit export: --version b=./no-b: no such folder; give the folder of version `b`'s Markdown files.",
    ]);
  });

  it('refuses an --out that holds a plain bundle or other files, writing nothing', async () => {
    const one = await folder(ONE);
    const plain = join(await folder(), 'plain');
    expect((await exportOf(one, '--out', plain)).code).toBe(0);
    const before = (await readdir(plain)).sort();
    const run = await exportOf('--version', `1=${one}`, '--out', plain);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /holds a bundle without versions \(manifest\.json\); export versions into a new or empty folder/,
    );
    expect((await readdir(plain)).sort()).toEqual(before);
    const other = await folder({ 'notes.txt': 'mine\n' });
    const refused = await exportOf('--version', `1=${one}`, '--out', other);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/holds files but no export \(no versions\.json\)/);
    expect(await readdir(other)).toEqual(['notes.txt']);
  });

  it('a plain export into a versioned export is refused (it never removes what it did not write)', async () => {
    const one = await folder(ONE);
    const out = join(await folder(), 'kb');
    expect((await exportOf('--version', `1=${one}`, '--out', out)).code).toBe(0);
    const run = await exportOf(one, '--out', out);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/holds files but no bundle/);
  });
});

/** Valid labels (which refuse `.` and `..`, since a label names a folder). */
const label = fc
  .stringMatching(/^[A-Za-z0-9._-]{1,12}$/)
  .filter((s) => versionLabelProblem(s) === undefined);

describe('readVersionFlags and versions.json (properties)', () => {
  it('gives back exactly the labels and folders in order, the default the named one or the first', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(label, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.boolean(),
        (labels, pick, name) => {
          const named = labels[pick % labels.length]!;
          const result = readVersionFlags(
            {
              version: labels.map((l, i) => `${l}=dir ${i}=x`),
              ...(name ? { 'default-version': named } : {}),
            },
            false,
          );
          expect(result).toEqual({
            folders: labels.map((l, i) => ({ label: l, dir: `dir ${i}=x` })),
            defaultVersion: name ? named : labels[0],
            read: undefined,
            problems: [],
          });
        },
      ),
      { seed: 20261207, numRuns: 100 },
    );
  });

  it('versions.json lists exactly the versions given, in order, with the one default', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(label, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        (labels, pick) => {
          const chosen = labels[pick % labels.length]!;
          const entries = labels.map((l, i) => ({ version: l, activeContentRevision: `rev-${i}` }));
          const parsed = parseVersionsFile(versionsFileText(entries, chosen));
          expect(parsed).toEqual({
            versions: {
              format: 'knowledge-kit-versions',
              version: 1,
              default: chosen,
              versions: entries,
            },
          });
        },
      ),
      { seed: 20261207, numRuns: 100 },
    );
  });
});
