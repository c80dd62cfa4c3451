/**
 * The command line's versions of a knowledge store, in process: `publish --version` and
 * `--default-version`, `versions` (text and `--json`), `unpublish --version`, and each refusal naming
 * the flag that fixes it. On PGlite (a data folder the commands open themselves), or on the server at
 * `KK_POSTGRES_URL` in a schema of its own.
 */
import { describe, expect, it } from 'vitest';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';
import { useTempFolders } from '../helpers/tempFolders.js';
import { openTestDatabase, POSTGRES_URL } from '../helpers/postgres-database.js';
import { freshPgliteFolder } from '../helpers/pglite-folder.js';
import { join } from 'node:path';
import { PUBLISH_HELP, UNPUBLISH_HELP, VERSIONS_HELP } from '../../src/cli/help.js';
import { requireBuiltCli, useRunningClis } from '../helpers/cli.js';
import { getJson, startServe } from '../helpers/cli-serve.js';
import { connectMcp, useMcpConnections } from '../helpers/cli-mcp.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-versions-' });
useRunningClis();
useMcpConnections();

/** A store for one test: its `--database` words (and `--schema` on a server), and how to drop it. */
async function store(name: string): Promise<{
  readonly words: readonly string[];
  close(): Promise<void>;
}> {
  if (POSTGRES_URL === undefined)
    return {
      words: ['--database', `pglite:${await freshPgliteFolder(await folder())}`],
      close: () => Promise.resolve(),
    };
  const server = await openTestDatabase(name);
  return {
    words: ['--database', POSTGRES_URL, '--schema', server.schema],
    close: () => server.close(),
  };
}

const REVISION = /"rev-[0-9a-f]+"/;

describe('knowledge-kit publish --version, versions, unpublish', () => {
  // Each command opens the store (PGlite starts in seconds on a loaded machine).
  it(
    'publishes two versions side by side, lists them, changes the default, removes one',
    { timeout: 300_000 },
    async () => {
      const v3 = await folder({ 'guide.md': '# Guide\n\nThe 3.x refund window is 30 days.\n' });
      const v2 = await folder({ 'guide.md': '# Guide\n\nThe 2.x refund window is 14 days.\n' });
      const { words, close } = await store('cliv');
      try {
        const first = await cli(['publish', v3, ...words, '--kb', 'docs', '--version', '3.x']);
        expect(first.stderr).toBe('');
        expect(first.code).toBe(0);
        expect(first.stdout).toMatch(
          /^published docs version 3\.x at revision "rev-[0-9a-f]+" \(1 page\)\n$/,
        );
        const second = await cli(['publish', v2, ...words, '--kb', 'docs', '--version', '2.x']);
        expect(second.code, second.stderr).toBe(0);
        expect(second.stdout).toMatch(/^published docs version 2\.x at revision /);
        // The same content again into 2.x: unchanged, and it says which version.
        const again = await cli(['publish', v2, ...words, '--kb', 'docs', '--version', '2.x']);
        expect(again.stdout).toMatch(/^unchanged docs version 2\.x at revision /);
        // 3.x's content into 2.x: 2.x's active revision changes, and the output says so.
        const moved = await cli(['publish', v3, ...words, '--kb', 'docs', '--version', '2.x']);
        expect(moved.code, moved.stderr).toBe(0);
        expect(moved.stdout).toMatch(
          /^reactivated docs version 2\.x at revision "rev-[0-9a-f]+", published earlier with the same content \(the active revision was "rev-[0-9a-f]+"\)/,
        );
        const back = await cli(['publish', v2, ...words, '--kb', 'docs', '--version', '2.x']);
        expect(back.code, back.stderr).toBe(0);

        const listed = await cli(['versions', ...words, '--kb', 'docs']);
        expect(listed.code, listed.stderr).toBe(0);
        const lines = listed.stdout.trimEnd().split('\n');
        expect(lines).toHaveLength(2);
        expect(lines[0]).toMatch(
          /^2\.x           revision "rev-[0-9a-f]+", published \d{4}-\d\d-\d\dT/,
        );
        expect(lines[1]).toMatch(/^3\.x  default  revision "rev-[0-9a-f]+", published /);
        const json = await cli(['versions', ...words, '--kb', 'docs', '--json']);
        const parsed = JSON.parse(json.stdout) as { version: string; default: boolean }[];
        expect(parsed.map((v) => [v.version, v.default])).toEqual([
          ['2.x', false],
          ['3.x', true],
        ]);
        expect(Object.keys(parsed[0]!)).toEqual([
          'version',
          'default',
          'activeContentRevision',
          'publishedAt',
        ]);
        expect(String((parsed[0] as Record<string, unknown>)['activeContentRevision'])).toMatch(
          /^rev-/,
        );

        // Search reads the default version, and a publish without --version goes into it.
        const found = await cli(['search', ...words, '--kb', 'docs', 'refund window', '--json']);
        expect(found.code, found.stderr).toBe(0);
        expect(found.stdout).toContain('30 days');

        // Removing the default needs the next default named.
        const refused = await cli(['unpublish', ...words, '--kb', 'docs', '--version', '3.x']);
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(
          'knowledge-kit unpublish: 3.x is the default version of docs; name the version that becomes the default with --default-version (one of 2.x)',
        );
        const made = await cli(['versions', ...words, '--kb', 'docs', '--default-version', '2.x']);
        expect(made.code, made.stderr).toBe(0);
        expect(made.stdout).toMatch(/^2\.x  default  /);
        const removed = await cli(['unpublish', ...words, '--kb', 'docs', '--version', '3.x']);
        expect(removed.code, removed.stderr).toBe(0);
        expect(removed.stdout).toMatch(
          /^unpublished docs version 3\.x; the default version is 2\.x/,
        );
        const after = await cli(['versions', ...words, '--kb', 'docs', '--json']);
        expect((JSON.parse(after.stdout) as { version: string }[]).map((v) => v.version)).toEqual([
          '2.x',
        ]);
        const foundAfter = await cli([
          'search',
          ...words,
          '--kb',
          'docs',
          'refund window',
          '--json',
        ]);
        expect(foundAfter.stdout).toContain('14 days');

        // Never the last version.
        const last = await cli(['unpublish', ...words, '--kb', 'docs', '--version', '2.x']);
        expect(last.code).toBe(2);
        expect(last.stderr).toContain(
          '2.x is the only version of docs, and a knowledge base keeps at least one. Publish another version first',
        );
      } finally {
        await close();
      }
    },
  );

  it(
    '--default-version on publish; without --version, publishes into the default version',
    { timeout: 180_000 },
    async () => {
      const dir = await folder({ 'guide.md': '# Guide\n\nOne.\n' });
      const next = await folder({ 'guide.md': '# Guide\n\nTwo.\n' });
      const { words, close } = await store('clid');
      try {
        const plain = await cli(['publish', dir, ...words, '--kb', 'docs']);
        // A knowledge base of one version `current` prints as before.
        expect(plain.stdout).toMatch(/^published docs at revision "rev-[0-9a-f]+" \(1 page\)\n$/);
        const made = await cli([
          'publish',
          next,
          ...words,
          '--kb',
          'docs',
          '--version',
          'v2',
          '--default-version',
          'v2',
        ]);
        expect(made.code, made.stderr).toBe(0);
        expect(made.stdout).toMatch(/; the default version is v2\n$/);
        const into = await cli(['publish', dir, ...words, '--kb', 'docs']);
        // One's content into v2 (the default): v2 now serves the revision `current` has.
        expect(into.stdout).toMatch(/^reactivated docs version v2 at revision /);
        const unknown = await cli([
          'publish',
          dir,
          ...words,
          '--kb',
          'docs',
          '--default-version',
          'v9',
        ]);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain(
          'knowledge-kit publish: --default-version v9 names a version knowledge base docs does not have (it has current, v2)',
        );
      } finally {
        await close();
      }
    },
  );

  it(
    'refuses a bad label, a missing flag or an unknown version, naming the flag and the fix',
    { timeout: 180_000 },
    async () => {
      const dir = await folder({ 'guide.md': '# Guide\n' });
      const { words, close } = await store('clie');
      try {
        const bad = await cli(['publish', dir, ...words, '--kb', 'docs', '--version', '3 x']);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain(
          'knowledge-kit publish: --version "3 x": character 2 (" ") is not one of A–Z a–z 0–9 . _ -; name versions like 3.x, v2 or 2026-10.',
        );
        expect((await cli(['publish', dir, ...words, '--kb', 'docs'])).code).toBe(0);
        const noVersion = await cli(['unpublish', ...words, '--kb', 'docs']);
        expect(noVersion.code).toBe(2);
        expect(noVersion.stderr).toContain(
          'knowledge-kit unpublish: needs --database, --kb and --version',
        );
        const unknown = await cli(['unpublish', ...words, '--kb', 'docs', '--version', '9.x']);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain(
          'knowledge-kit unpublish: --version 9.x is not a version of docs (it has current); pass one of them.',
        );
        const noKb = await cli(['versions', ...words, '--kb', 'nope']);
        expect(noKb.code).toBe(2);
        expect(noKb.stderr).toContain('the store has no knowledge base `nope`');
        const setUnknown = await cli([
          'versions',
          ...words,
          '--kb',
          'docs',
          '--default-version',
          'x',
        ]);
        expect(setUnknown.code).toBe(2);
        expect(setUnknown.stderr).toContain(
          '--default-version x is not a version of docs (it has current)',
        );
        expect(REVISION.test((await cli(['versions', ...words, '--kb', 'docs'])).stdout)).toBe(
          true,
        );
      } finally {
        await close();
      }
    },
  );

  it(
    'the --help examples work as printed (their folders made in a temporary folder)',
    { timeout: 300_000 },
    async () => {
      const root = await folder({
        'docs-v3/guide.md': '# Guide\n\nThree.\n',
        'docs-v2/guide.md': '# Guide\n\nTwo.\n',
      });
      await freshPgliteFolder(join(root, 'store'));
      const examples = [PUBLISH_HELP, VERSIONS_HELP, UNPUBLISH_HELP].flatMap((help) =>
        help
          .split('\n')
          .filter((line) => line.startsWith('  knowledge-kit '))
          .map((line) => line.trim()),
      );
      expect(examples).toHaveLength(6);
      for (const example of examples) {
        const args = example
          .split(' ')
          .slice(1)
          .map((word) =>
            word.startsWith('./')
              ? join(root, word.slice(2))
              : word.startsWith('pglite:./')
                ? `pglite:${join(root, word.slice('pglite:./'.length))}`
                : word,
          );
        const run = await cli(args);
        expect(run.stderr, example).toBe('');
        expect(run.code, example).toBe(0);
      }
    },
  );

  it(
    'search, read and outline --version; diff --database; serve and mcp --database serve every version',
    { timeout: 400_000 },
    async () => {
      await requireBuiltCli();
      const v3 = await folder({
        'guide.md': '# Guide\n\nThe 3.x refund window is 30 days.\n\n## Setup\n\nRun it.\n',
        'new.md': '# New\n\nOnly in 3.x.\n',
      });
      const v2 = await folder({
        'guide.md': '# Guide\n\nThe 2.x refund window is 14 days.\n',
        'old.md': '# Old\n\nOnly in 2.x.\n',
      });
      // A PGlite folder of its own: serve and mcp open it themselves, one process at a time.
      const { words, close } = await store('clis');
      try {
        expect(
          (await cli(['publish', v3, ...words, '--kb', 'docs', '--version', '3.x'])).code,
        ).toBe(0);
        expect(
          (await cli(['publish', v2, ...words, '--kb', 'docs', '--version', '2.x'])).code,
        ).toBe(0);
        const two = await cli([
          'search',
          ...words,
          '--kb',
          'docs',
          '--version',
          '2.x',
          'refund window',
          '--json',
        ]);
        expect(two.code, two.stderr).toBe(0);
        expect(two.stdout).toContain('14 days');
        expect(two.stdout).not.toContain('30 days');
        const outline = await cli(['outline', ...words, '--kb', 'docs', '--version', '2.x']);
        expect(outline.code, outline.stderr).toBe(0);
        expect(outline.stdout).toContain('old');
        expect(outline.stdout).not.toContain('new');
        const unknown = await cli(['read', ...words, '--kb', 'docs', '--version', '4.x', 'guide']);
        expect(unknown.code).toBe(2);
        expect(unknown.stderr).toContain(
          'knowledge-kit read: --version 4.x is not a version of docs (it has 2.x, 3.x (default)); pass one of them, or leave --version out for the default.',
        );
        const bad = await cli(['search', ...words, '--kb', 'docs', '--version', '2.x=dir', 'x']);
        expect(bad.code).toBe(2);
        expect(bad.stderr).toContain(
          "--version LABEL=FOLDER names a version's folder; it does not go with --database",
        );

        const diff = await cli(['diff', ...words, '--kb', 'docs', '2.x', '3.x', '--json']);
        expect(diff.code, diff.stderr).toBe(0);
        const result = JSON.parse(diff.stdout) as {
          from: string;
          to: string;
          added: string[];
          removed: string[];
          changed: { path: string }[];
        };
        expect([result.from, result.to, result.added, result.removed]).toEqual([
          '2.x',
          '3.x',
          ['pages/new.md'],
          ['pages/old.md'],
        ]);
        expect(result.changed.map((c) => c.path)).toEqual(['pages/guide.md']);
        const text = await cli(['diff', ...words, '--kb', 'docs', '2.x', '3.x', '--exit-code']);
        expect(text.code).toBe(1);
        expect(text.stdout).toMatch(
          /^2\.x → 3\.x: 1 page added, 1 removed, 1 changed, 0 unchanged\n/,
        );
        const missing = await cli(['diff', ...words, '--kb', 'docs', '2.x', '9.x']);
        expect(missing.code).toBe(2);
        expect(missing.stderr).toContain('no version `9.x` in docs; its versions are `2.x`, `3.x`');

        const served = await startServe([...words, '--port', '0', '--rate-limit', '0']);
        const base = served.url.slice(0, served.url.lastIndexOf('/'));
        const tree = await getJson(`${base}/docs/tree`);
        expect(tree.status).toBe(200);
        const root = tree.body as { versions: { version: string; default: boolean }[] };
        expect(root.versions.map((v) => [v.version, v.default])).toEqual([
          ['2.x', false],
          ['3.x', true],
        ]);
        const read = await getJson(`${base}/docs/files/content?path=pages%2Fguide.md`);
        expect(JSON.stringify(read.body)).toContain('30 days');
        served.cli.child.kill('SIGTERM');
        expect((await served.cli.exited).code).toBe(0);

        const mcp = await connectMcp([...words, '--kb', 'docs']);
        const listed = await mcp.client.callTool({ name: 'list_tree', arguments: {} });
        expect(listed.isError).toBe(false);
        expect(
          (listed.structuredContent as { versions: { version: string }[] }).versions.map(
            (v) => v.version,
          ),
        ).toEqual(['2.x', '3.x']);
        await mcp.close();
      } finally {
        await close();
      }
    },
  );

  it('prints its help', async () => {
    for (const command of ['versions', 'unpublish']) {
      const help = await cli([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toContain(`Usage: knowledge-kit ${command} --database <url> --kb <id>`);
    }
  });
});
