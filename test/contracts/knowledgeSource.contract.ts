/**
 * The `KnowledgeSource` conformance suite (hono's `runTest({ newRouter })` is the model): any source —
 * the catalog source, the HTTP client over the handler, the command line's live source, exploration's
 * gated methods, and later a PostgreSQL or a static-bundle source — calls
 * `runKnowledgeSourceConformance({ name, newSource, reference })` from its own test file and must pass.
 *
 * Nothing here is hard-coded: the calls are derived from the knowledge (the reference's tree, its
 * files' sections, their titles as queries), and every expected output, error code and status is the
 * reference's (`createCatalogSource` over the same input) for the same call. The suite checks
 *
 * - every output against its tool's output schema (ajv, strict, draft 2020-12);
 * - the same outputs as the reference, on the wire (JSON) and up to cursor strings, which are opaque:
 *   every directory page by page with the subject's own cursors, every file's metadata, whole reads by
 *   ID and by path, section reads in both modes, searches in every mode with their next page, related
 *   files and graph expansions with their pages;
 * - error codes and statuses for bad arguments, unknown IDs, bad and stale cursors;
 * - the caller's request ID echoed in errors, and an aborted signal refused.
 *
 * A source that cannot pass a check by design says so in `skip`, with the reason, and the check is
 * reported as skipped under that reason (so the gap stays visible).
 */
import { describe, expect, it, beforeAll, afterAll } from 'vitest';
import { isKnowledgeToolError, type KnowledgeToolError } from '../../src/agent/errors/index.js';
import { KNOWLEDGE_TOOL_SCHEMAS } from '../../src/agent/tools/schemas/index.js';
import { KNOWLEDGE_TOOLS } from '../../src/agent/tools/registry.js';
import type {
  KnowledgeCallContext,
  KnowledgeSource,
  KnowledgeToolName,
} from '../../src/agent/index.js';
import { schemaErrors, strictAjv } from '../helpers/tools-ajv.js';
import { SOURCE_METHODS, type SourceMethod } from '../helpers/fakeSource.js';

/** The checks of the suite, by the name `skip` uses. */
export const CONFORMANCE_CHECKS = [
  'schemas',
  'listTree',
  'getFile',
  'readFile',
  'readParts',
  'searchFiles',
  'searchFilters',
  'readRelated',
  'expandGraph',
  'badArguments',
  'unknownIds',
  'badCursors',
  'staleCursors',
  'requestId',
  'abort',
] as const;

/** One check of the suite. */
export type ConformanceCheck = (typeof CONFORMANCE_CHECKS)[number];

/** What a source under test hands the suite. */
export interface KnowledgeSourceConformance {
  /** Shown in the suite's title. */
  readonly name: string;
  /** The source under test, over the same knowledge as `reference`; built once, before the checks. */
  readonly newSource: () => KnowledgeSource | Promise<KnowledgeSource>;
  /** `createCatalogSource` over the same input: every expected output is its output for the same call. */
  readonly reference: () => KnowledgeSource;
  /**
   * The context the reference is called with, so that its outputs are what the subject answers to a
   * call without one: e.g. the `actionBase` and `knowledgeBaseId` an HTTP handler passes its source.
   */
  readonly referenceContext?: KnowledgeCallContext;
  /**
   * A source over the same knowledge at another revision: its cursors are stale for the subject.
   * Without it, `staleCursors` is skipped.
   */
  readonly otherRevision?: () => KnowledgeSource;
  /** The methods the subject serves; default all of `SOURCE_METHODS` (one per tool). */
  readonly methods?: readonly SourceMethod[];
  /** Checks the subject cannot pass by design, each with the reason. */
  readonly skip?: Partial<Record<ConformanceCheck, string>>;
  /** Called after the checks (a server to close). */
  readonly close?: () => Promise<void>;
}

/** The tool of each source method. */
const TOOL_OF = Object.fromEntries(
  KNOWLEDGE_TOOLS.map((tool) => [tool.method, tool.name]),
) as Record<SourceMethod, KnowledgeToolName>;

type Call = (input: unknown, context?: KnowledgeCallContext) => Promise<unknown>;

/** An output as it would cross a wire: JSON, so `undefined` members are gone. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value)) as unknown;

/** An ISO 8601 time as `Date#toISOString()` writes it. */
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * `publishedAt` says when each source published or loaded its revision, which legitimately differs
 * between sources: checked to be an ISO time, then compared as a placeholder.
 */
function publishedAtChecked(record: Record<string, unknown>): void {
  if (!('publishedAt' in record)) return;
  expect(record['publishedAt']).toMatch(ISO_TIME);
  record['publishedAt'] = '<publishedAt>';
}

/**
 * Cursors are opaque: only whether there is one is the same across sources. `publishedAt` (beside
 * each `activeContentRevision`) is each source's own time.
 */
function withoutCursors(value: unknown): unknown {
  const out = wire(value) as Record<string, unknown>;
  if (typeof out === 'object' && out !== null && 'nextCursor' in out)
    out['nextCursor'] = out['nextCursor'] === null ? null : '<cursor>';
  if (typeof out === 'object' && out !== null) {
    publishedAtChecked(out);
    const file = out['file'];
    if (typeof file === 'object' && file !== null)
      publishedAtChecked(file as Record<string, unknown>);
    const versions = out['versions'];
    if (Array.isArray(versions))
      for (const version of versions) publishedAtChecked(version as Record<string, unknown>);
  }
  return out;
}

/** The error a call rejects with, or a failure saying it resolved. */
async function rejection(promise: Promise<unknown>, what: string): Promise<KnowledgeToolError> {
  let caught: unknown;
  try {
    await promise;
  } catch (error) {
    caught = error;
  }
  if (caught === undefined) throw new Error(`${what}: expected a rejection, but it resolved`);
  expect(isKnowledgeToolError(caught), `${what}: ${String(caught)}`).toBe(true);
  return caught as KnowledgeToolError;
}

/**
 * Run the conformance suite on one source.
 *
 * @param subject - the source under test and the reference it is compared with.
 * @example
 * runKnowledgeSourceConformance({
 *   name: 'createCatalogSource',
 *   newSource: () => createCatalogSource(catalog, options),
 *   reference: () => createCatalogSource(catalog, options),
 * });
 */
export function runKnowledgeSourceConformance(subject: KnowledgeSourceConformance): void {
  const methods = subject.methods ?? SOURCE_METHODS;
  const skip = subject.skip ?? {};
  const refContext = subject.referenceContext;

  describe(`KnowledgeSource conformance: ${subject.name}`, () => {
    let source: KnowledgeSource;
    let reference: KnowledgeSource;
    /** Every output the checks saw, for the schema check, by method. */
    const seen: [SourceMethod, unknown][] = [];

    beforeAll(async () => {
      source = await subject.newSource();
      reference = subject.reference();
    });
    afterAll(async () => {
      await subject.close?.();
    });

    const serves = (method: SourceMethod): boolean => methods.includes(method);
    const sub = (method: SourceMethod): Call => {
      const fn = source[method] as Call;
      return async (input, context) => {
        const output = await fn.call(source, input, context);
        seen.push([method, output]);
        return output;
      };
    };
    const ref = (method: SourceMethod): Call => {
      const fn = reference[method] as Call;
      return (input, context) => fn.call(reference, input, { ...refContext, ...context });
    };
    /** The subject's and the reference's answers to one call are the same (cursors aside). */
    const same = async (method: SourceMethod, input: unknown): Promise<unknown> => {
      const [mine, theirs] = await Promise.all([sub(method)(input), ref(method)(input)]);
      expect(withoutCursors(mine), `${method}(${JSON.stringify(input)})`).toEqual(
        withoutCursors(theirs),
      );
      return mine;
    };

    /** `it`, or `it.skip` naming the reason when the subject cannot serve or pass the check. */
    const check = (
      name: ConformanceCheck,
      title: string,
      needs: readonly SourceMethod[],
      body: () => Promise<void>,
    ): void => {
      const missing = needs.filter((method) => !serves(method));
      const reason =
        skip[name] ??
        (missing.length === needs.length && needs.length > 0
          ? `the source does not serve ${missing.join(', ')}`
          : undefined);
      if (reason !== undefined) it.skip(`${name}: ${title} — skipped: ${reason}`, body);
      else it(`${name}: ${title}`, body);
    };

    /** Every directory of the reference's tree, root first, and every file in it. */
    async function referenceTree(): Promise<{ dirs: string[]; files: Record<string, unknown>[] }> {
      const dirs: string[] = [];
      const files: Record<string, unknown>[] = [];
      const stack = [''];
      while (stack.length > 0) {
        const parentPath = stack.pop()!;
        dirs.push(parentPath);
        let cursor: string | null = null;
        do {
          const page = (await ref('listTree')({ parentPath, cursor, limit: 200 })) as {
            items: Record<string, unknown>[];
            nextCursor: string | null;
          };
          for (const item of page.items) {
            if (item['entryType'] === 'directory') stack.push(String(item['path']));
            else files.push(item);
          }
          cursor = page.nextCursor;
        } while (cursor !== null);
      }
      return { dirs, files };
    }

    /** The reference's page files (not navigation files), which have sections and links. */
    async function pages(): Promise<string[]> {
      const { files } = await referenceTree();
      return files
        .filter((file) => file['fileKind'] === 'page')
        .map((file) => String(file['fileId']));
    }

    check(
      'listTree',
      'every directory, whole and page by page with the subject’s own cursors, as the reference',
      ['listTree'],
      async () => {
        const { dirs, files } = await referenceTree();
        expect(files.length, 'the knowledge has files').toBeGreaterThan(1);
        await same('listTree', undefined);
        for (const parentPath of dirs) {
          await same('listTree', { parentPath });
          // Page by page, each side following its own cursors given alone (a cursor carries the
          // parameters it was issued for): the same pages in the same order.
          let mine: string | null = null;
          let theirs: string | null = null;
          let pagesSeen = 0;
          do {
            const [a, b] = (await Promise.all([
              sub('listTree')(mine === null ? { parentPath, limit: 1 } : { cursor: mine }),
              ref('listTree')(theirs === null ? { parentPath, limit: 1 } : { cursor: theirs }),
            ])) as { nextCursor: string | null }[];
            expect(withoutCursors(a), `${parentPath} page ${pagesSeen}`).toEqual(withoutCursors(b));
            mine = a!.nextCursor;
            theirs = b!.nextCursor;
            pagesSeen++;
          } while (mine !== null && pagesSeen < 1000);
          expect(theirs).toBeNull();
        }
      },
    );

    check('getFile', 'every file’s metadata, as the reference', ['getFile'], async () => {
      const { files } = await referenceTree();
      for (const file of files) await same('getFile', { fileId: file['fileId'] });
    });

    check(
      'readFile',
      'every file whole by ID and by path, and sections in both modes, as the reference',
      ['readFile'],
      async () => {
        const { files } = await referenceTree();
        let sectionReads = 0;
        for (const file of files) {
          await same('readFile', { fileId: file['fileId'] });
          await same('readFile', { path: file['path'] });
          const info = (await ref('getFile')({ fileId: file['fileId'] })) as {
            sections: { id: string }[];
          };
          const sectionIds = info.sections.slice(0, 2).map((section) => section.id);
          if (sectionIds.length === 0) continue;
          for (const mode of ['self', 'subtree'] as const) {
            await same('readFile', { fileId: file['fileId'], sectionIds, mode });
            sectionReads++;
          }
          await same('readFile', { path: file['path'], sectionIds: sectionIds.slice(0, 1) });
        }
        expect(sectionReads, 'the knowledge has sections').toBeGreaterThan(0);
      },
    );

    check(
      'readParts',
      'every file in parts, each side following its own cursors alone, as the reference; the parts add up to the whole read',
      ['readFile'],
      async () => {
        const { files } = await referenceTree();
        let cut = 0;
        for (const file of files) {
          const whole = (await ref('readFile')({ fileId: file['fileId'] })) as { content: string };
          const first = { fileId: file['fileId'], maxChars: 200 };
          let [mine, theirs] = (await Promise.all([
            sub('readFile')(first),
            ref('readFile')(first),
          ])) as { content: string; nextCursor: string | null }[];
          const contents = [mine!.content];
          for (let part = 1; ; part++) {
            expect(withoutCursors(mine), `${String(file['path'])} part ${part}`).toEqual(
              withoutCursors(theirs),
            );
            if (mine!.nextCursor === null || theirs!.nextCursor === null) break;
            cut++;
            [mine, theirs] = (await Promise.all([
              sub('readFile')({ cursor: mine!.nextCursor }),
              ref('readFile')({ cursor: theirs!.nextCursor }),
            ])) as { content: string; nextCursor: string | null }[];
            contents.push(mine!.content);
          }
          expect(contents.join(''), String(file['path'])).toBe(whole.content);
        }
        expect(cut, 'some file is longer than 200 code points').toBeGreaterThan(0);
        const [page] = await pages();
        await sameErrors([['readFile', { fileId: page, maxChars: 10, whole: true }]]);
      },
    );

    check(
      'searchFiles',
      'the files’ titles and a word in no file, in every mode, with the next page, as the reference',
      ['searchFiles'],
      async () => {
        const { files } = await referenceTree();
        const titles = files
          .filter((file) => file['fileKind'] === 'page')
          .slice(0, 3)
          .map((file) => String(file['title']));
        const queries = [...titles, titles.join(' '), `zq${'x'.repeat(12)}`];
        let paged = 0;
        for (const query of queries) {
          for (const mode of ['hybrid', 'file', 'graph'] as const) {
            const input = { query, mode, limit: 2 };
            const [mine, theirs] = (await Promise.all([
              sub('searchFiles')(input),
              ref('searchFiles')(input),
            ])) as { nextCursor: string | null }[];
            expect(withoutCursors(mine), `${query} ${mode}`).toEqual(withoutCursors(theirs));
            if (mine!.nextCursor !== null && theirs!.nextCursor !== null) {
              paged++;
              const [a, b] = await Promise.all([
                sub('searchFiles')({ ...input, cursor: mine!.nextCursor }),
                ref('searchFiles')({ ...input, cursor: theirs!.nextCursor }),
              ]);
              expect(withoutCursors(a), `${query} ${mode} page 2`).toEqual(withoutCursors(b));
            }
          }
        }
        expect(paged, 'some search had a second page').toBeGreaterThan(0);
      },
    );

    check(
      'searchFilters',
      'searches narrowed by pathPrefix, tags and locale (alone, together, keeping no page), paged with the subject’s own cursors, and a cursor given other filters refused, as the reference',
      ['searchFiles'],
      async () => {
        const { files } = await referenceTree();
        const infos = (await Promise.all(
          files
            .filter((file) => file['fileKind'] === 'page')
            .map((file) => ref('getFile')({ fileId: file['fileId'] })),
        )) as { path: string; locale: string | null; frontmatter: { tags?: unknown } }[];
        const folders = [
          ...new Set(
            infos.flatMap(({ path }) => {
              const cut = path.lastIndexOf('/');
              return cut > 'pages/'.length ? [path.slice(0, cut + 1)] : [];
            }),
          ),
        ];
        const tags = [
          ...new Set(
            infos.flatMap(({ frontmatter }) =>
              Array.isArray(frontmatter.tags) ? (frontmatter.tags as string[]) : [],
            ),
          ),
        ];
        const locales = [
          ...new Set(infos.flatMap(({ locale }) => (locale === null ? [] : [locale]))),
        ];
        const filters: Record<string, unknown>[] = [
          { pathPrefix: 'pages/' },
          { pathPrefix: 'pages/no-such-folder/' },
          { tags: 'no such tag' },
          { locale: 'no-such-locale' },
          ...folders.slice(0, 2).map((folder) => ({ pathPrefix: folder })),
          ...(folders.length > 1 ? [{ pathPrefix: folders.slice(0, 2) }] : []),
          ...tags.slice(0, 2).map((tag) => ({ tags: tag })),
          ...(tags.length > 1 ? [{ tags: tags.slice(0, 2) }] : []),
          ...locales.slice(0, 2).map((locale) => ({ locale })),
          ...(tags.length > 0 && locales.length > 0
            ? [{ tags: [tags[0]], locale: locales[0] }]
            : []),
        ];
        const titles = files
          .filter((file) => file['fileKind'] === 'page')
          .slice(0, 2)
          .map((file) => String(file['title']));
        let kept = 0;
        let paged = 0;
        for (const query of [titles.join(' '), ...titles])
          for (const filter of filters)
            for (const mode of ['hybrid', 'graph'] as const) {
              const input = { query, mode, limit: 1, ...filter };
              let mine: string | null = null;
              let theirs: string | null = null;
              let n = 0;
              do {
                const [a, b] = (await Promise.all([
                  sub('searchFiles')(mine === null ? input : { cursor: mine }),
                  ref('searchFiles')(theirs === null ? input : { cursor: theirs }),
                ])) as { items: unknown[]; nextCursor: string | null }[];
                expect(withoutCursors(a), `${JSON.stringify(input)} page ${n}`).toEqual(
                  withoutCursors(b),
                );
                kept += a!.items.length;
                mine = a!.nextCursor;
                theirs = b!.nextCursor;
                n++;
              } while (mine !== null && n < 50);
              if (n > 1) paged++;
            }
        expect(kept, 'some filtered search has candidates').toBeGreaterThan(0);
        expect(paged, 'some filtered search has a second page').toBeGreaterThan(0);
        const first = (await sub('searchFiles')({
          query: titles.join(' '),
          limit: 1,
          pathPrefix: 'pages/',
        })) as {
          nextCursor: string | null;
        };
        const theirs = (await ref('searchFiles')({
          query: titles.join(' '),
          limit: 1,
          pathPrefix: 'pages/',
        })) as {
          nextCursor: string | null;
        };
        if (first.nextCursor !== null) {
          const mineError = await rejection(
            sub('searchFiles')({ cursor: first.nextCursor, pathPrefix: 'pages/x/' }),
            'a cursor given another pathPrefix',
          );
          const refError = await rejection(
            ref('searchFiles')({ cursor: theirs.nextCursor, pathPrefix: 'pages/x/' }),
            'reference: a cursor given another pathPrefix',
          );
          expect(mineError.code).toBe(refError.code);
          expect(mineError.code).toBe('INVALID_CURSOR');
        }
        await sameErrors([
          ['searchFiles', { query: 'q', pathPrefix: '/pages/' }],
          ['searchFiles', { query: 'q', pathPrefix: [] }],
          ['searchFiles', { query: 'q', tags: ['a', ''] }],
          ['searchFiles', { query: 'q', locale: '' }],
        ]);
      },
    );

    check(
      'readRelated',
      'every page’s related files, whole and page by page, as the reference',
      ['readRelated'],
      async () => {
        let related = 0;
        for (const fileId of await pages()) {
          const whole = (await same('readRelated', { fileId })) as { items: unknown[] };
          related += whole.items.length;
          let mine: string | null = null;
          let theirs: string | null = null;
          let n = 0;
          do {
            const [a, b] = (await Promise.all([
              sub('readRelated')({ fileId, limit: 1, cursor: mine }),
              ref('readRelated')({ fileId, limit: 1, cursor: theirs }),
            ])) as { nextCursor: string | null }[];
            expect(withoutCursors(a), `${fileId} page ${n}`).toEqual(withoutCursors(b));
            mine = a!.nextCursor;
            theirs = b!.nextCursor;
            n++;
          } while (mine !== null && n < 1000);
        }
        expect(related, 'the knowledge has links').toBeGreaterThan(0);
      },
    );

    check(
      'expandGraph',
      'every page’s graph at depths 1 and 2, and its next page, as the reference',
      ['expandGraph'],
      async () => {
        for (const fileId of await pages()) {
          await same('expandGraph', { fileId });
          const input = { fileId, depth: 2, fanout: 1 };
          const [mine, theirs] = (await Promise.all([
            sub('expandGraph')(input),
            ref('expandGraph')(input),
          ])) as { nextCursor: string | null }[];
          expect(withoutCursors(mine), fileId).toEqual(withoutCursors(theirs));
          if (mine!.nextCursor !== null && theirs!.nextCursor !== null) {
            const [a, b] = await Promise.all([
              sub('expandGraph')({ ...input, cursor: mine!.nextCursor }),
              ref('expandGraph')({ ...input, cursor: theirs!.nextCursor }),
            ]);
            expect(withoutCursors(a), `${fileId} page 2`).toEqual(withoutCursors(b));
          }
        }
      },
    );

    /** The subject refuses each call with the reference's code and status. */
    async function sameErrors(calls: readonly [SourceMethod, unknown][]): Promise<void> {
      let checked = 0;
      for (const [method, input] of calls) {
        if (!serves(method)) continue;
        const what = `${method}(${JSON.stringify(input)})`;
        const expected = await rejection(ref(method)(input), `reference ${what}`);
        const actual = await rejection(sub(method)(input), what);
        expect({ code: actual.code, httpStatus: actual.httpStatus }, what).toEqual({
          code: expected.code,
          httpStatus: expected.httpStatus,
        });
        expect(actual.message.length, what).toBeGreaterThan(0);
        checked++;
      }
      expect(checked).toBeGreaterThan(0);
    }

    check(
      'badArguments',
      'bad arguments are refused with the reference’s code and status',
      methods,
      async () => {
        const [page] = await pages();
        await sameErrors([
          ['listTree', { limit: 0 }],
          ['listTree', { parent: '' }],
          ['listTree', { parentPath: '/' }],
          ['getFile', {}],
          ['getFile', { fileId: 7 }],
          ['readFile', {}],
          ['readFile', { fileId: page, path: 'x.md' }],
          ['readFile', { fileId: page, mode: 'self' }],
          ['searchFiles', { query: '   ' }],
          ['searchFiles', { query: 'x', mode: 'fuzzy' }],
          ['searchFiles', { query: 'x', limit: 1.5 }],
          ['readRelated', {}],
          ['readRelated', { fileId: page, limit: -1 }],
          ['expandGraph', { fileId: page, depth: 0 }],
          ['expandGraph', { fileId: page, fanout: 'x' }],
        ]);
      },
    );

    check(
      'unknownIds',
      'unknown files, paths, directories and sections are refused as the reference does',
      methods,
      async () => {
        const [page] = await pages();
        const nobody = `no-such-file-${'q'.repeat(8)}`;
        await sameErrors([
          ['listTree', { parentPath: nobody }],
          ['getFile', { fileId: nobody }],
          ['readFile', { fileId: nobody }],
          ['readFile', { path: `pages/${nobody}.md` }],
          ['readFile', { fileId: page, sectionIds: [nobody] }],
          ['readRelated', { fileId: nobody }],
          ['expandGraph', { fileId: nobody }],
        ]);
      },
    );

    check(
      'badCursors',
      'malformed cursors are refused as the reference does',
      methods,
      async () => {
        const [page] = await pages();
        const { files } = await referenceTree();
        const query = String(files[0]!['title']);
        // A cursor of another call: valid in form, bound to other parameters.
        const other = (await ref('listTree')({ parentPath: '', limit: 1 })) as {
          nextCursor: string | null;
        };
        const cursors = ['not-a-cursor', '', other.nextCursor ?? 'not-a-cursor'];
        await sameErrors(
          cursors.flatMap((cursor): [SourceMethod, unknown][] => [
            ['listTree', { parentPath: '_graph', cursor }],
            ['searchFiles', { query, cursor }],
            ['readRelated', { fileId: page, cursor }],
            ['expandGraph', { fileId: page, cursor }],
          ]),
        );
      },
    );

    check(
      'staleCursors',
      'a cursor of another revision is refused as the reference does',
      methods,
      async () => {
        if (subject.otherRevision === undefined)
          throw new Error('staleCursors needs `otherRevision`, or a reason in `skip`');
        const old = subject.otherRevision();
        const [page] = await pages();
        const calls: [SourceMethod, Record<string, unknown>][] = [
          ['listTree', { parentPath: '', limit: 1 }],
          ['readRelated', { fileId: page, limit: 1 }],
        ];
        const stale: [SourceMethod, unknown][] = [];
        for (const [method, input] of calls) {
          const first = (await (old[method] as Call).call(old, input, refContext)) as {
            nextCursor: string | null;
          };
          if (first.nextCursor !== null)
            stale.push([method, { ...input, cursor: first.nextCursor }]);
        }
        expect(stale.length, 'the other revision gave cursors').toBeGreaterThan(0);
        await sameErrors(stale);
      },
    );

    check(
      'requestId',
      'the caller’s request ID is echoed in every method’s errors',
      methods,
      async () => {
        const nobody = `no-such-file-${'r'.repeat(8)}`;
        const calls: Record<SourceMethod, unknown> = {
          listTree: { parentPath: nobody },
          getFile: { fileId: nobody },
          readFile: { fileId: nobody },
          searchFiles: { query: '   ' },
          readRelated: { fileId: nobody },
          expandGraph: { fileId: nobody },
        };
        for (const method of methods) {
          const requestId = `req-conformance-${method}`;
          const error = await rejection(
            (source[method] as Call).call(source, calls[method], { requestId }),
            method,
          );
          expect(error.requestId, method).toBe(requestId);
          expect(error.toJSON().requestId, method).toBe(requestId);
        }
      },
    );

    check(
      'abort',
      'an aborted signal is refused as the reference refuses it',
      methods,
      async () => {
        const [page] = await pages();
        const calls: Record<SourceMethod, unknown> = {
          listTree: {},
          getFile: { fileId: page },
          readFile: { fileId: page },
          searchFiles: { query: 'x' },
          readRelated: { fileId: page },
          expandGraph: { fileId: page },
        };
        const controller = new AbortController();
        controller.abort(new Error('the caller gave up'));
        const signal = controller.signal;
        for (const method of methods) {
          const expected = await rejection(
            ref(method)(calls[method], { signal }),
            `reference ${method}`,
          );
          const actual = await rejection(
            (source[method] as Call).call(source, calls[method], { signal }),
            method,
          );
          expect(actual.code, method).toBe(expected.code);
        }
      },
    );

    // Last: every output the checks above saw, against its tool's output schema.
    check('schemas', 'every output seen matches its tool’s output schema', methods, async () => {
      if (seen.length === 0) {
        // Run alone (`-t schemas`): make one call of each method first.
        const [page] = await pages();
        const calls: Record<SourceMethod, unknown> = {
          listTree: {},
          getFile: { fileId: page },
          readFile: { fileId: page },
          searchFiles: { query: 'knowledge' },
          readRelated: { fileId: page },
          expandGraph: { fileId: page },
        };
        for (const method of methods) await sub(method)(calls[method]);
      }
      const ajv = strictAjv();
      const byMethod = new Set<SourceMethod>();
      for (const [method, output] of seen) {
        byMethod.add(method);
        expect(
          schemaErrors(ajv, KNOWLEDGE_TOOL_SCHEMAS[TOOL_OF[method]].output, output),
          method,
        ).toBe('');
      }
      expect([...byMethod].sort()).toEqual([...methods].sort());
    });
  });
}
