/**
 * The message for a missing optional database driver names an install that the running command can
 * reach: `npm install <name>` in the user's folder does nothing for a global install.
 */
import { describe, expect, it } from 'vitest';
import { installAdvice } from '../../src/cli/installAdvice.js';

describe('installAdvice', () => {
  it('a global install: npm install --prefix <its lib folder>, the same as npm install -g', () => {
    expect(
      installAdvice('@electric-sql/pglite', '/usr/lib/node_modules/knowledge-kit/dist/cli.js'),
    ).toBe(
      'Install it where knowledge-kit is installed: `npm install --prefix /usr/lib @electric-sql/pglite` (for a global install, the same as `npm install -g @electric-sql/pglite`; `npm install @electric-sql/pglite` in another folder does not reach the command).',
    );
  });

  it("a project's dependency: the project's folder", () => {
    expect(installAdvice('pg', '/home/me/app/node_modules/knowledge-kit/dist/cli.js')).toContain(
      '`npm install --prefix /home/me/app pg`',
    );
  });

  it("a clone run from its own folder: the folder of knowledge-kit's package.json", () => {
    expect(installAdvice('pg', '/home/me/knowledge-kit/dist/cli.js')).toBe(
      "Run `npm install pg` in the folder of knowledge-kit's package.json.",
    );
  });
});
