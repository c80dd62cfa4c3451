/**
 * The one parser of `--version LABEL=FOLDER` and `--default-version` (`readVersionFlags`), as
 * properties (fixed seed): a label is accepted exactly when it is a valid version label, whatever it
 * holds, and each refused one is one problem naming `--version`; accepted folders keep their order, the
 * default is the first; `versionArgs` refuses the first problem (exit 2, one line), as `export` lists
 * them all and `diff` refuses the first. The database commands' one-label flags (`versionFlag`) say a
 * refused label in the same words.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { versionLabelProblem } from '../../src/agent/versions/label.js';
import { CliExit } from '../../src/cli/io.js';
import { readVersionFlags, versionArgs, versionFlag } from '../../src/cli/versions.js';
import { useTempFolders } from '../helpers/tempFolders.js';

const folder = useTempFolders({ removeAfter: 'all', prefix: 'kk-version-args-' });

/** Labels: mostly valid ones, and strings with any characters, empty, `.`, `..` and over-long ones. */
const label = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9._-]{1,64}$/),
  fc.string({ maxLength: 70 }).filter((text) => !text.includes('=')),
  fc.constantFrom('', '.', '..'),
  fc.constant('x'.repeat(65)),
);

describe('readVersionFlags and versionArgs', () => {
  it('accepts a label exactly when it is valid; one problem naming --version for each other', async () => {
    const dir = await folder();
    fc.assert(
      fc.property(fc.uniqueArray(label, { minLength: 1, maxLength: 4 }), (labels) => {
        const values = { version: labels.map((l) => `${l}=${dir}`) };
        const good = labels.filter((l) => versionLabelProblem(l) === undefined);
        const bad = labels.filter((l) => versionLabelProblem(l) !== undefined);
        const read = readVersionFlags(values, false);
        expect(read.folders).toEqual(good.map((l) => ({ label: l, dir })));
        expect(read.defaultVersion).toBe(good[0]);
        expect(read.read).toBeUndefined();
        expect(read.problems).toHaveLength(bad.length);
        for (const problem of read.problems) {
          expect(problem).toMatch(/^--version /);
          expect(problem).not.toContain('\n');
        }
        if (bad.length === 0) {
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
        expect((thrown as CliExit).message).toBe(`knowledge-kit serve: ${read.problems[0]!}`);
      }),
      { seed: 20261207, numRuns: 200 },
    );
  });

  it('--default-version is the named label when it is one of them, else one problem naming it', () => {
    const valid = fc
      .stringMatching(/^[A-Za-z0-9._-]{1,12}$/)
      .filter((s) => versionLabelProblem(s) === undefined);
    fc.assert(
      fc.property(fc.uniqueArray(valid, { minLength: 1, maxLength: 4 }), label, (labels, named) => {
        const read = readVersionFlags(
          { version: labels.map((l) => `${l}=d`), 'default-version': named },
          true,
        );
        expect(read.folders.map((f) => f.label)).toEqual(labels);
        if (labels.includes(named)) {
          expect(read.problems).toEqual([]);
          expect(read.defaultVersion).toBe(named);
        } else {
          expect(read.problems).toHaveLength(1);
          expect(read.problems[0]).toMatch(/^--default-version /);
          expect(read.defaultVersion).toBe(labels[0]);
        }
      }),
      { seed: 20261207, numRuns: 200 },
    );
  });

  it('versionFlag (publish, unpublish, versions) accepts exactly the valid labels, refusing the others in the words of readVersionFlags', () => {
    expect(versionFlag('publish', 'version', undefined)).toBeUndefined();
    fc.assert(
      fc.property(label, fc.constantFrom('version', 'default-version'), (text, flag) => {
        if (versionLabelProblem(text) === undefined) {
          expect(versionFlag('publish', flag, text)).toBe(text);
          return;
        }
        let thrown: unknown;
        try {
          versionFlag('unpublish', flag, text);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(CliExit);
        const words =
          flag === 'version'
            ? readVersionFlags({ version: text }, true).problems[0]
            : readVersionFlags({ version: 'a=d', 'default-version': text }, false).problems[0];
        expect((thrown as CliExit).message).toBe(`knowledge-kit unpublish: ${words}`);
        expect((thrown as CliExit).exitCode).toBe(2);
      }),
      { seed: 20261207, numRuns: 200 },
    );
  });
});
