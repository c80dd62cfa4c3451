/**
 * The one fake `KnowledgeSource` of the tests. `fakeSource({ listTree, … }, { base })` answers each
 * method with the function given for it, else forwards to `base`, else calls `otherwise`, else rejects
 * with a `KnowledgeToolError` `INTERNAL` that names the method the test did not give. Its method list
 * is `SOURCE_METHODS`, the methods of the registry's tools, so a new source method needs no change
 * here, and every fake built on it gets the method (answered by the default) at once.
 *
 * Every call is counted and logged (method, input, context); a test can make the next call of a
 * method fail (`control.failNext`) or every call wait (`control.delayMs`). Without either, a method
 * returns exactly what its function returns — a value, a promise that rejects or never settles, or a
 * synchronous throw — so tests of how callers cope with a misbehaving source see that misbehaviour.
 */
import { KnowledgeToolError } from '../../src/agent/errors/KnowledgeToolError.js';
import { KNOWLEDGE_TOOLS, type KnowledgeSourceMethod } from '../../src/agent/tools/registry.js';
import type {
  KnowledgeCallContext,
  KnowledgeSource,
  SearchFilesInput,
} from '../../src/agent/index.js';

/** A method of every `KnowledgeSource` (`warm` is optional and not one of them). */
export type SourceMethod = KnowledgeSourceMethod;

/** The read methods of a `KnowledgeSource`: one per tool of the registry, in its order. */
export const SOURCE_METHODS: readonly SourceMethod[] = KNOWLEDGE_TOOLS.map((tool) => tool.method);

/** What a fake answers one method with: anything, including a throw or a promise that never settles. */
export type FakeMethod<M extends SourceMethod> = (
  input: Parameters<KnowledgeSource[M]>[0],
  context: KnowledgeCallContext | undefined,
) => unknown;

/** Functions for some of the methods. */
export type FakeMethods = { readonly [M in SourceMethod]?: FakeMethod<M> };

/** Where the methods a test did not give go. */
export interface FakeSourceOptions {
  /** Forward them to this source (called with `this` = `base`). */
  readonly base?: KnowledgeSource;
  /** Or answer them with this (after `base`, which wins when both are given). */
  readonly otherwise?: (
    method: SourceMethod,
    input: unknown,
    context: KnowledgeCallContext | undefined,
  ) => unknown;
  /** A `warm` method; default none (not even `base.warm`: the fake is the six read methods). */
  readonly warm?: (context?: KnowledgeCallContext) => Promise<void>;
}

/** A call the fake heard. */
export interface HeardCall {
  readonly method: SourceMethod;
  readonly input: unknown;
  readonly context: KnowledgeCallContext | undefined;
}

/** What a test sees and steers of its fake. */
export interface FakeSourceControl {
  /** Calls per method (absent: never called). */
  readonly calls: Partial<Record<SourceMethod, number>>;
  /** Every call in order, with its input and context. */
  readonly log: HeardCall[];
  /** Inputs of the `searchFiles` calls that resolved, in call order. */
  readonly searches: SearchFilesInput[];
  /** Make the next call of this method reject with this error (then the entry is removed). */
  failNext: Partial<Record<SourceMethod, unknown>>;
  /** Milliseconds each call waits before answering (0: no wait, and no promise added). */
  delayMs: number;
}

/** A fake `KnowledgeSource` and its control. */
export interface FakeSource {
  readonly source: KnowledgeSource;
  readonly control: FakeSourceControl;
}

/**
 * A `KnowledgeSource` whose methods are `methods`, else `options.base`'s, else `options.otherwise`,
 * else a rejection naming the missing method.
 *
 * @example
 * const { source, control } = fakeSource({ listTree: async () => { throw new Error('boom'); } }, { base });
 * await tools.list_tree.execute({});
 * expect(control.calls.listTree).toBe(1);
 */
export function fakeSource(methods: FakeMethods = {}, options: FakeSourceOptions = {}): FakeSource {
  const control: FakeSourceControl = { calls: {}, log: [], searches: [], failNext: {}, delayMs: 0 };
  const { base, otherwise } = options;
  const answer = (
    method: SourceMethod,
    input: unknown,
    context: KnowledgeCallContext | undefined,
  ) => {
    const own = methods[method] as
      ((input: unknown, context: KnowledgeCallContext | undefined) => unknown) | undefined;
    if (own !== undefined) return own(input, context);
    if (base !== undefined)
      return (base[method] as (i: unknown, c?: KnowledgeCallContext) => unknown).call(
        base,
        input,
        context,
      );
    if (otherwise !== undefined) return otherwise(method, input, context);
    return Promise.reject(
      new KnowledgeToolError(
        'INTERNAL',
        `fakeSource: the test gave no \`${method}\`; pass one in \`fakeSource({ ${method} })\`, or a \`base\` source.`,
        { requestId: context?.requestId },
      ),
    );
  };
  const record = (method: SourceMethod, input: unknown, result: unknown): unknown => {
    if (method === 'searchFiles' && result instanceof Promise)
      void result.then(
        () => control.searches.push(input as SearchFilesInput),
        () => undefined,
      );
    return result;
  };
  const source = {} as Record<
    SourceMethod,
    (input: unknown, context?: KnowledgeCallContext) => unknown
  >;
  for (const method of SOURCE_METHODS) {
    source[method] = (input: unknown, context?: KnowledgeCallContext) => {
      control.calls[method] = (control.calls[method] ?? 0) + 1;
      control.log.push({ method, input, context });
      if (control.delayMs === 0 && !(method in control.failNext))
        return record(method, input, answer(method, input, context));
      return record(
        method,
        input,
        (async () => {
          if (control.delayMs > 0)
            await new Promise((resolve) => setTimeout(resolve, control.delayMs));
          if (method in control.failNext) {
            const failure = control.failNext[method];
            delete control.failNext[method];
            throw failure;
          }
          return await answer(method, input, context);
        })(),
      );
    };
  }
  const warm = options.warm;
  const built = warm === undefined ? source : { ...source, warm };
  return { source: built as unknown as KnowledgeSource, control };
}

/**
 * A source whose every method throws a plain `Error` carrying a stack-like, path-leaking message: a
 * fake, because no real source fails this way (a broken app's source), and the tools must not leak it.
 */
export function createBrokenSource(): KnowledgeSource {
  return fakeSource(
    {},
    {
      otherwise: async () => {
        throw new Error(
          'ENOENT: /srv/secret/catalog.json at Object.<anonymous> (/srv/app/index.js:1:1)',
        );
      },
    },
  ).source;
}

/**
 * `base` with some methods replaced (`(input, context) => …`, which may throw, reject or hang), and a log
 * of every call with its input and context: the test kit's `fakeSource` over `base`.
 */
export function recordingSource(
  base: KnowledgeSource,
  overrides: FakeMethods = {},
): { readonly source: KnowledgeSource; readonly calls: HeardCall[] } {
  const { source, control } = fakeSource(overrides, { base });
  return { source, calls: control.log };
}
