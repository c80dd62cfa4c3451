/**
 * A static export with versions (`versions.json` at its root, one bundle per version under
 * `versions/<label>/`), read by the same `createStaticSource` as a plain bundle. The source stays
 * synchronous to create and reads nothing until its first call: a plain bundle is read exactly as
 * before (not one request more), and only a call that fails to find `manifest.json` at the root looks
 * for `versions.json`.
 */
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import type { KnowledgeSource } from '../tools/knowledgeSource.js';
import type { KnowledgeCallContext } from '../types.js';
import {
  createVersionedSource,
  type VersionedKnowledgeSource,
} from '../versions/createVersionedSource.js';
import type { BundleReader } from './bundleReader.js';
import { parseVersionsFile, VERSIONS_PATH } from './versionsFile.js';

type Method = (input: unknown, context?: KnowledgeCallContext) => Promise<unknown>;

/** Errors after which a call of the plain source looks for `versions.json` (no root manifest). */
const MAYBE_VERSIONED: ReadonlySet<string> = new Set(['TRANSPORT_ERROR', 'VERSION_NOT_FOUND']);

/**
 * `plain` over a bundle root, answering as a versioned source when the root is a versioned export.
 *
 * - Until a call succeeds, the root's kind is unknown: a call goes to `plain`; when it fails with
 *   `TRANSPORT_ERROR` (no `manifest.json`) or `VERSION_NOT_FOUND`, `versions.json` is read, and when
 *   there is one the call is answered by the versions instead. A plain bundle stays plain.
 * - Once versioned, each call reads `versions.json` first (a new export is seen on the next call, as
 *   `manifest.json` is for a plain bundle), then the version's own bundle. The source of each label
 *   is kept across exports, so its files stay cached by its revision.
 *
 * @param plain - the static source over the root as a plain bundle.
 * @param bundle - the reader of the root (for `versions.json`).
 * @param versionSource - the plain static source over `versions/<label>/`.
 * @returns the source (the methods of `plain`).
 */
export function withBundleVersions(
  plain: KnowledgeSource,
  bundle: BundleReader,
  versionSource: (label: string) => KnowledgeSource,
): KnowledgeSource {
  let kind: 'unknown' | 'plain' | 'versioned' = 'unknown';
  let current: { readonly text: string; readonly source: VersionedKnowledgeSource } | undefined;
  const byLabel = new Map<string, KnowledgeSource>();

  /** The versioned source of the root's `versions.json`, or `undefined` when it has none. */
  const versionsOf = async (
    context: KnowledgeCallContext | undefined,
  ): Promise<VersionedKnowledgeSource | undefined> => {
    const text = await bundle.optional(VERSIONS_PATH, context?.signal);
    if (text === null) return undefined;
    if (current?.text === text) return current.source;
    const parsed = parseVersionsFile(text);
    if ('problem' in parsed) throw bundle.broken(VERSIONS_PATH, parsed.problem);
    const versions: Record<string, KnowledgeSource> = {};
    for (const { version } of parsed.versions.versions) {
      let source = byLabel.get(version);
      if (source === undefined) byLabel.set(version, (source = versionSource(version)));
      versions[version] = source;
    }
    const source = createVersionedSource({ versions, default: parsed.versions.default });
    current = { text, source };
    return source;
  };

  /** An error of the root's reader, with the call's request ID. */
  const withRequest = (error: unknown, context: KnowledgeCallContext | undefined): unknown =>
    error instanceof KnowledgeToolError && context?.requestId !== undefined
      ? new KnowledgeToolError(error.code, error.message, {
          requestId: context.requestId,
          cause: error,
        })
      : error;

  /** The versioned source's answer (a method only the plain source has, such as another registry's tool, stays plain's). */
  const answer = (
    versioned: VersionedKnowledgeSource,
    name: string,
    input: unknown,
    context: KnowledgeCallContext | undefined,
  ): Promise<unknown> => {
    const method = (versioned as unknown as Record<string, Method | undefined>)[name];
    return method !== undefined
      ? method(input, context)
      : (plain as unknown as Record<string, Method>)[name]!(input, context);
  };

  const call = async (
    name: string,
    input: unknown,
    context: KnowledgeCallContext | undefined,
  ): Promise<unknown> => {
    const own = (plain as unknown as Record<string, Method>)[name]!;
    if (kind !== 'versioned') {
      try {
        const output = await own(input, context);
        kind = 'plain';
        return output;
      } catch (error) {
        if (
          kind === 'plain' ||
          !(error instanceof KnowledgeToolError) ||
          !MAYBE_VERSIONED.has(error.code) ||
          context?.signal?.aborted === true
        )
          throw error;
        let versioned: VersionedKnowledgeSource | undefined;
        try {
          versioned = await versionsOf(context);
        } catch (problem) {
          // A broken versions.json is the answer; failing to read it leaves the plain error.
          if (problem instanceof KnowledgeToolError && problem.code === 'INTERNAL')
            throw withRequest(problem, context);
          throw error;
        }
        if (versioned === undefined) throw error;
        kind = 'versioned';
        return answer(versioned, name, input, context);
      }
    }
    let versioned: VersionedKnowledgeSource | undefined;
    try {
      versioned = await versionsOf(context);
    } catch (error) {
      throw withRequest(error, context);
    }
    if (versioned === undefined) {
      // The root is no longer a versioned export: read it as a plain bundle again.
      kind = 'unknown';
      current = undefined;
      return call(name, input, context);
    }
    return answer(versioned, name, input, context);
  };

  const methods: Record<string, Method> = {};
  for (const [name, value] of Object.entries(plain))
    if (typeof value === 'function')
      methods[name] = (input: unknown, context?: KnowledgeCallContext) =>
        call(name, input, context);
  return Object.freeze(methods as unknown as KnowledgeSource);
}
