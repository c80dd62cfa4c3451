/**
 * The test kit itself (test/helpers/): the golden helper never writes under CI and never passes a
 * comparison it wrote; the fake source answers what it was not given with a clear error; the error
 * expecter catches both error kinds, sync and async, and fails on anything else; the place finder
 * counts lines as the library does; the global setup leaves `dist/` up to date.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { KnowledgeToolError } from '../src/agent/errors/KnowledgeToolError.js';
import { parseKnowledgeDocument } from '../src/index.js';
import { staleReason } from '../scripts/build.mjs';
import { fakeSource, SOURCE_METHODS } from './helpers/fakeSource.js';
import {
  controlledScenario,
  EXPLORATION_PAGES,
  scenarioSource,
  sourceWithIds,
} from './helpers/scenarioSources.js';
import { expectGolden, goldenMode } from './helpers/golden.js';
import { catchKnowledgeError, expectKnowledgeError } from './helpers/knowledgeError.js';
import { placeAt, placeOf } from './helpers/place.js';
import { useTempFolders } from './helpers/tempFolders.js';
import { expectSameOutput } from './helpers/versions.js';

const folder = useTempFolders({ removeAfter: 'all' });
let dir: string;
beforeAll(async () => {
  dir = await folder();
});
const fileIn = (name: string): URL => pathToFileURL(join(dir, name));

describe('golden files', () => {
  it('UPDATE_GOLDEN=1 under CI is refused; CI alone and no variable compare', () => {
    expect(() => goldenMode({ CI: 'true', UPDATE_GOLDEN: '1' })).toThrow(/under CI/);
    expect(goldenMode({ CI: 'true' })).toBe('compare');
    expect(goldenMode({})).toBe('compare');
    expect(goldenMode({ UPDATE_GOLDEN: '1' })).toBe('update');
    expect(goldenMode({ CI: 'false', UPDATE_GOLDEN: '1' })).toBe('update');
  });

  it('a missing golden file fails the comparison with how to write it, and is not written', () => {
    const file = fileIn('missing.json');
    expect(() => expectGolden(file, { a: 1 }, {})).toThrow(/UPDATE_GOLDEN=1/);
    expect(() => expectGolden(file, { a: 1 }, { CI: '1' })).toThrow(/no golden file/);
    expect(existsSync(file)).toBe(false);
  });

  it.fails('the run that writes a golden file (UPDATE_GOLDEN=1) does not pass', () => {
    expectGolden(fileIn('written.json'), { a: [1, 2] }, { UPDATE_GOLDEN: '1' });
  });

  it('… but it wrote the file, which later runs compare with', () => {
    const file = fileIn('written.json');
    expect(readFileSync(file, 'utf8')).toBe('{\n  "a": [\n    1,\n    2\n  ]\n}\n');
    expectGolden(file, { a: [1, 2] }, {});
    expect(() => expectGolden(file, { a: [2, 1] }, {})).toThrow();
  });
});

describe('scenario sources', () => {
  it('are real catalog sources over their tiny catalogs; the controlled one answers the same and counts', async () => {
    const real = scenarioSource(EXPLORATION_PAGES);
    const { source, control } = controlledScenario(EXPLORATION_PAGES);
    const direct = await real.readFile({ fileId: 'refunds', sectionIds: ['window'] });
    expectSameOutput(await source.readFile({ fileId: 'refunds', sectionIds: ['window'] }), direct);
    expect(direct.content).toContain('Refund window: 14 days.');
    expect((await source.searchFiles({ query: 'refunds' })).items.length).toBeGreaterThan(0);
    expect(control.calls).toEqual({ readFile: 1, searchFiles: 1 });
  });

  it('sourceWithIds takes any ID string, at an explicit path', async () => {
    const source = sourceWithIds(['a b', '../x']);
    expect((await source.getFile({ fileId: '../x' })).path).toBe('pages/p1.md');
  });
});

describe('fakeSource', () => {
  it('has the method of every tool of the registry; one not given rejects with INTERNAL naming it', async () => {
    const { source, control } = fakeSource({ getFile: async () => 'given' });
    for (const method of SOURCE_METHODS) expect(typeof source[method]).toBe('function');
    expect(await source.getFile({ fileId: 'x' })).toBe('given');
    const error = await expectKnowledgeError(source.listTree({}, { requestId: 'req-1' }), {
      code: 'INTERNAL',
      message: /gave no `listTree`/,
      requestId: 'req-1',
    });
    expect(error.httpStatus).toBe(500);
    expect(control.calls).toEqual({ getFile: 1, listTree: 1 });
    expect(control.log.map((call) => call.method)).toEqual(['getFile', 'listTree']);
  });

  it('forwards to a base, fails the next call when told, waits when told, and records searches', async () => {
    const base = fakeSource({ searchFiles: async (input) => ({ echoed: input.query }) }).source;
    const { source, control } = fakeSource({}, { base });
    control.failNext.searchFiles = new KnowledgeToolError('SEARCH_TIMEOUT', 'slow');
    await expectKnowledgeError(source.searchFiles({ query: 'a' }), { code: 'SEARCH_TIMEOUT' });
    control.delayMs = 5;
    const started = Date.now();
    expect(await source.searchFiles({ query: 'b' })).toEqual({ echoed: 'b' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(4);
    expect(control.searches).toEqual([{ query: 'b' }]);
  });

  it('keeps a synchronous throw synchronous (callers that must cope with one see it)', () => {
    const { source } = fakeSource({
      listTree: () => {
        throw new Error('sync');
      },
    });
    expect(() => source.listTree()).toThrow('sync');
  });
});

describe('expectKnowledgeError', () => {
  const parse = (text: string) => parseKnowledgeDocument({ id: 'd', revision: 'r', text });

  it('checks a KnowledgeError thrown synchronously: code and place', () => {
    const text = 'x\n<!-- agent-section:a -->\n';
    const error = expectKnowledgeError(() => parse(text), {
      code: 'UNCLOSED_SECTION',
      ...placeOf(text, '<!--'),
    });
    expect(error.issues).toHaveLength(1);
    expect(() =>
      expectKnowledgeError(() => parse(text), { code: 'UNCLOSED_SECTION', line: 1 }),
    ).toThrow();
    expect(() => expectKnowledgeError(() => parse(text), { code: 'CYCLE' })).toThrow();
  });

  it('checks a KnowledgeToolError rejected asynchronously, and a KnowledgeError rejected', async () => {
    const failing = Promise.reject(new KnowledgeToolError('NOT_FOUND', 'No file `x`.'));
    await expectKnowledgeError(failing, { code: 'NOT_FOUND', message: /No file/ });
    await expectKnowledgeError(async () => parse('<!-- /agent-section:a -->'), {
      code: 'UNEXPECTED_CLOSE',
      line: 1,
    });
    await expect(
      expectKnowledgeError(Promise.reject(new KnowledgeToolError('NOT_FOUND', 'x')), {
        code: 'INVALID_ARGUMENT',
      }),
    ).rejects.toThrow();
  });

  it('fails on nothing thrown, on a resolved promise, and on another error', async () => {
    expect(() => expectKnowledgeError(() => 1, { code: 'CYCLE' })).toThrow(/nothing was thrown/);
    await expect(expectKnowledgeError(Promise.resolve(1), { code: 'NOT_FOUND' })).rejects.toThrow(
      /resolved/,
    );
    expect(() =>
      expectKnowledgeError(
        () => {
          throw new TypeError('plain');
        },
        { code: 'CYCLE' },
      ),
    ).toThrow(/got TypeError: plain/);
    await expect(
      catchKnowledgeError(Promise.reject(new KnowledgeToolError('NOT_FOUND', 'x'))),
    ).rejects.toThrow(/got the KnowledgeToolError NOT_FOUND/);
  });
});

describe('placeAt / placeOf', () => {
  it('counts LF, CRLF and a lone CR as line ends, columns in UTF-16 units', () => {
    expect(placeAt('a\nb\r\nc\rd', 7)).toEqual({ line: 4, column: 1 });
    expect(placeOf('a\r\n😀x', 'x')).toEqual({ line: 2, column: 3 });
    expect(placeOf('ab\ncd', 'cd', 1)).toEqual({ line: 2, column: 2 });
    expect(() => placeOf('abc', 'z')).toThrow(/not in the text/);
  });
});

describe('global setup', () => {
  it('leaves dist/ with every bundle, no older than src/ (the declarations: see strict-consumer)', () => {
    expect(staleReason({ declarations: false })).toBeUndefined();
  });
});

describe('useTempFolders', () => {
  const each = useTempFolders();
  let made = '';

  it('makes a folder holding the tree', async () => {
    made = await each({ 'a/b.md': '# B\n' });
    expect(readFileSync(join(made, 'a', 'b.md'), 'utf8')).toBe('# B\n');
  });

  it('… and removes it after that test', () => {
    expect(made).not.toBe('');
    expect(existsSync(made)).toBe(false);
  });
});

describe('the kit is one folder', () => {
  it('no folder of test/ but test/helpers/ is named helpers', () => {
    const root = new URL('./', import.meta.url);
    const helpers = readdirSync(root, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name === 'helpers')
      .map((entry) => join(entry.parentPath, entry.name).slice(root.pathname.length));
    expect(helpers).toEqual(['helpers']);
  });
});
