/** `read` takes the `pages/…` path that `search` prints, as well as the document ID. */
import { describe, expect, it } from 'vitest';
import { useTempFolders } from '../helpers/tempFolders.js';
import { cliInProcess as cli } from '../helpers/cli-inProcess.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-cli-read-path-' });

describe('read <dir> pages/x.md', () => {
  it('reads the page at that path, as its ID reads it; an unknown path keeps the ID error', async () => {
    const dir = await folder({
      'faq/billing.md': '# Billing\n\nInvoices go out monthly.\n',
      'renamed.md': '---\nid: guide\n---\n# Guide\n\nHow to start.\n',
    });
    for (const [path, id] of [
      ['pages/faq/billing.md', 'faq/billing'],
      ['pages/renamed.md', 'guide'],
    ] as const) {
      const byPath = await cli(['read', dir, path]);
      expect(byPath.code, byPath.stderr).toBe(0);
      expect(byPath.stdout).toBe((await cli(['read', dir, id])).stdout);
    }
    const missing = await cli(['read', dir, 'pages/none.md']);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain('pages/none.md');
  });
});
