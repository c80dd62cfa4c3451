/**
 * `npm run example:versions` (examples/versions.mjs) runs as printed: each version answers from its own
 * pages, a missing version is refused with the list, the diff names the planted changes, and the
 * command line reads the same folders as versions. On the built package, as a user runs it.
 */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { requireBuiltCli } from '../helpers/cli.js';

beforeAll(requireBuiltCli);

const EXAMPLE = fileURLToPath(new URL('../../examples/versions.mjs', import.meta.url));

describe('examples/versions.mjs', () => {
  it('asks each version the same question, refuses a missing one, and prints the diff', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, [EXAMPLE], {
      timeout: 60_000,
    });
    const sections = stdout.split('\n=== ');
    const of = (title: string) => sections.find((section) => section.startsWith(title)) ?? '';
    expect(of('list_tree: the versions')).toMatch(/^2026-10 \(default\) {2}revision /m);
    expect(of('list_tree: the versions')).toMatch(/^2026-04 {2}revision /m);
    expect(of('search_files + read_file, version 2026-10')).toContain('within 60 days');
    expect(of('search_files + read_file, version 2026-10')).not.toContain('within 30 days');
    expect(of('search_files + read_file, version 2026-04')).toContain('within 30 days');
    expect(of('search_files + read_file, version 2026-04')).not.toContain('within 60 days');
    expect(of('A version that is not there')).toContain(
      'VERSION_NOT_FOUND: `search_files`: this knowledge base has no version `2025-10`. Its versions: `2026-10` (default), `2026-04`.',
    );
    expect(of('exportKnowledgeVersions')).toMatch(/^versions\/2026-04\/: 3 pages$/m);
    expect(of('exportKnowledgeVersions')).toContain(
      'version 2026-04 from the files: pages/returns.md (2026-04)',
    );
    expect(of('diffVersions')).toContain('added: pages/exchanges.md');
    expect(of('diffVersions')).toContain('removed: pages/faq.md');
    expect(of('diffVersions')).toContain('changed: pages/returns.md  sections ~ window');
    const cli = of('knowledge-kit search --version');
    expect(cli).toMatch(/\(exit 0\)\n.*pages\/returns\.md[^\n]*\n[^\n]*within 30 days/);
    expect(cli).toContain('(exit 2)\nknowledge-kit search: VERSION_NOT_FOUND:');
  }, 90_000);
});
