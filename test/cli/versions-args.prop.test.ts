/**
 * `--version LABEL=FOLDER` parsing, as a property (fixed seed): a label is accepted exactly when it is a
 * valid version label, whatever it holds, and a refused one is a usage error (exit 2) naming
 * `--version` and the label rules; accepted folders keep their order, and the default is the first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { versionLabelProblem } from '../../src/agent/versions/label.js';
import { CliExit } from '../../src/cli/io.js';
import { versionArgs } from '../../src/cli/versions.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-version-args-' });

/** Labels: mostly valid ones, and strings with any characters, empty and over-long ones. */
const label = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
  fc.string({ maxLength: 70 }).filter((text) => !text.includes('=')),
  fc.constant(''),
  fc.constant('x'.repeat(65)),
);

describe('versionArgs', () => {
  it('accepts a label exactly when it is valid; refuses others naming --version', async () => {
    const dir = await folder();
    fc.assert(
      fc.property(fc.uniqueArray(label, { minLength: 1, maxLength: 4 }), (labels) => {
        const values = { version: labels.map((l) => `${l}=${dir}`) };
        const firstBad = labels.find((l) => versionLabelProblem(l) !== undefined);
        if (firstBad === undefined) {
          const parsed = versionArgs('serve', values, false);
          expect(parsed.folders.map((f) => f.label)).toEqual(labels);
          expect(parsed.defaultVersion).toBe(labels[0]);
          return;
        }
        let thrown: unknown;
        try {
          versionArgs('serve', values, false);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(CliExit);
        expect((thrown as CliExit).exitCode).toBe(2);
        expect((thrown as CliExit).message).toMatch(/^knowledge-kit serve: --version /);
        expect((thrown as CliExit).message).not.toContain('\n');
      }),
      { seed: 20261207, numRuns: 200 },
    );
  });
});
