/**
 * `createVersionedSource`: one knowledge base with several labelled versions (`3.x`, `2.x`), each
 * served by a source of its own (a catalog, a folder, PostgreSQL, a static bundle, a remote knowledge
 * base). A call goes to the version it names (`version`), to the version its cursor continues, or to
 * the default; a version the knowledge base lacks is refused `VERSION_NOT_FOUND`, never answered from
 * another. Outputs name the version that answered, the root `list_tree` lists every version, and
 * cursors carry their version so a page of one version never continues in another.
 *
 * @module
 */
import type { KnowledgeIssue } from '../../errors/codes.js';
import { throwIfIssues } from '../../shared/guard.js';
import { KnowledgeToolError } from '../errors/KnowledgeToolError.js';
import type { KnowledgeSource, KnowledgeWarmContext } from '../tools/knowledgeSource.js';
import { KNOWLEDGE_TOOLS } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import { missingSourceMethod } from '../tools/sourceMethods.js';
import type {
  ActiveContentRevision,
  KnowledgeCallContext,
  KnowledgeVersionInfo,
} from '../types.js';
import { versionLabelProblem } from './label.js';
import { versionNotFound, type VersionListed } from './versionNotFound.js';

const API = 'createVersionedSource';

/** Between a cursor's version label and the cursor of that version's source (no label holds it). */
const CURSOR_LABEL_END = '~';

/** The options of `createVersionedSource`. */
export interface VersionedSourceOptions {
  /**
   * The versions, by label (1 to 64 characters of `A–Z a–z 0–9 . _ -`), each served by its own
   * source. Listed in this order by the root `list_tree`.
   */
  readonly versions: Readonly<Record<string, KnowledgeSource>>;
  /**
   * The version a call that names none reads. Required with two or more versions (JavaScript lists
   * integer-like keys such as `"2"` first, so the first key is not relied on).
   */
  readonly default?: string | undefined;
}

/** A source with versions: a `KnowledgeSource`, and the labels it serves. */
export interface VersionedKnowledgeSource extends KnowledgeSource {
  /** The labels, in the order the root `list_tree` lists them. */
  readonly versionLabels: readonly string[];
  /** The label of the version a call that names none reads. */
  readonly defaultVersion: string;
}

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Check the options; throws `KnowledgeError` `INVALID_INPUT` listing every problem. */
function readOptions(options: unknown): {
  readonly sources: ReadonlyMap<string, KnowledgeSource>;
  readonly fallback: string;
} {
  const issues: KnowledgeIssue[] = [];
  const problem = (path: (string | number)[], message: string) =>
    issues.push({ code: 'INVALID_INPUT', path, message: `${API}: ${message}` });
  const sources = new Map<string, KnowledgeSource>();
  if (!isRecord(options) || !isRecord(options['versions'])) {
    problem(
      ['versions'],
      'pass `{ versions: { "3.x": sourceA, "2.x": sourceB } }`: each version label with the source that serves it.',
    );
    throwIfIssues(issues);
    return { sources, fallback: '' };
  }
  const versions = options['versions'];
  for (const label of Object.keys(versions)) {
    const labelProblem = versionLabelProblem(label);
    if (labelProblem !== undefined) {
      problem(
        ['versions', label],
        `the version label ${JSON.stringify(label)} is not valid: ${labelProblem}. Name versions like \`3.x\`, \`v2\` or \`2026-10\`.`,
      );
      continue;
    }
    const source = versions[label];
    const missing = missingSourceMethod(source);
    if (missing !== undefined) {
      problem(
        ['versions', label],
        `the source of version \`${label}\` has no \`${missing}\` method. Pass a source from \`createCatalogSource\`, \`createStaticSource\`, \`createPostgresSource\`, \`loadKnowledgeDirectory\` or \`createKnowledgeClient\`.`,
      );
      continue;
    }
    if (typeof (source as Json)['versionLabels'] === 'object')
      problem(
        ['versions', label],
        `the source of version \`${label}\` has versions of its own. Pass each of its versions as a version here.`,
      );
    sources.set(label, source as KnowledgeSource);
  }
  if (Object.keys(versions).length === 0)
    problem(['versions'], 'pass at least one version: `{ versions: { "3.x": source } }`.');
  const named = options['default'];
  const labels = Object.keys(versions);
  let fallback = labels[0] ?? '';
  if (named === undefined && labels.length > 1)
    problem(
      ['default'],
      `name the default version: \`default: ${JSON.stringify(labels[0])}\` or another of ${labels.map((label) => `\`${label}\``).join(', ')}. (A call that names no version reads it; an object's key order is not relied on, since JavaScript lists keys such as "2" before the others.)`,
    );
  else if (named !== undefined) {
    if (typeof named !== 'string' || !Object.hasOwn(versions, named))
      problem(
        ['default'],
        `\`default\` is ${JSON.stringify(named)}, which is not one of the versions (${labels.map((label) => `\`${label}\``).join(', ')}). Name one of them.`,
      );
    else fallback = named;
  }
  throwIfIssues(issues);
  return { sources, fallback };
}

/** `url` asking for version `label` (a read action's URL, with or without a query). */
function withVersionParam(url: string, label: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}version=${encodeURIComponent(label)}`;
}

/**
 * A copy of a tool's output as the version `label` answered it: its `version` fields name the label,
 * its cursor carries it, and its read actions ask for it. An explicit stack; front matter (the
 * author's JSON) is copied as it is, never walked.
 */
function relabel(output: unknown, label: string): unknown {
  if (!isRecord(output)) return output;
  const root: Json = { ...output };
  const stack: Json[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    for (const key of Object.keys(node)) {
      const value = node[key];
      if (key === 'frontmatter') continue;
      if (key === 'version' && typeof value === 'string') node[key] = label;
      else if (key === 'nextCursor' && typeof value === 'string')
        node[key] = `${label}${CURSOR_LABEL_END}${value}`;
      else if (key === 'readActions' && isRecord(value)) {
        const actions: Json = {};
        for (const [name, url] of Object.entries(value))
          actions[name] = typeof url === 'string' ? withVersionParam(url, label) : url;
        node[key] = actions;
      } else if (Array.isArray(value)) {
        const items = value.map((item) => (isRecord(item) ? { ...item } : item));
        for (const item of items) if (isRecord(item)) stack.push(item);
        node[key] = items;
      } else if (isRecord(value)) {
        const copy = { ...value };
        node[key] = copy;
        stack.push(copy);
      }
    }
  }
  return root;
}

/**
 * Compose sources into one knowledge base with versions: each call is answered by exactly one
 * version's source, the one it names (`version`), the one its cursor continues, or the default.
 *
 * - A call naming a version there is not is refused `VERSION_NOT_FOUND`, listing the versions; it is
 *   never answered from another version.
 * - Every output names the version that answered (`version`), and the root `list_tree` (no
 *   `parentPath`, no `cursor`) lists every version with its revision and when it was published.
 * - A cursor carries its version: given alone it continues that version; given with another
 *   `version` it is `INVALID_CURSOR`.
 * - Read actions (`readActions` URLs) ask for the version that answered.
 *
 * The version sources are called without `version`; their own version names are replaced by the
 * labels given here.
 *
 * @param options - `versions` (label → source, in listing order) and `default` (required with two or more).
 * @returns the source, with `versionLabels` and `defaultVersion`.
 * @throws {KnowledgeError} `INVALID_INPUT` for no versions, an invalid label, something that is not a
 *   source, a source that has versions itself, or a `default` missing (two or more versions) or not one of the labels.
 * @example
 * ```ts
 * const source = createVersionedSource({
 *   versions: { '3.x': createCatalogSource(catalog3), '2.x': createCatalogSource(catalog2) },
 *   default: '3.x',
 * });
 * await source.searchFiles({ query: 'site config', version: '2.x' }); // from 2.x's pages only
 * ```
 */
export function createVersionedSource(options: VersionedSourceOptions): VersionedKnowledgeSource {
  const { sources, fallback } = readOptions(options);
  const labels = Object.freeze([...sources.keys()]);
  const listed: readonly VersionListed[] = labels.map((version) => ({
    version,
    default: version === fallback,
  }));

  const fail = (
    context: KnowledgeCallContext | undefined,
    code: 'INVALID_ARGUMENT' | 'INVALID_CURSOR' | 'VERSION_NOT_FOUND',
    message: string,
    details?: KnowledgeToolError['details'],
  ) =>
    new KnowledgeToolError(code, message, {
      requestId: context?.requestId,
      ...(details === undefined ? {} : { details }),
    });

  /** Which version answers the call, and its input without `version` (a cursor without its label). */
  const route = (
    tool: ToolDefinition,
    input: unknown,
    context: KnowledgeCallContext | undefined,
  ): { readonly label: string; readonly input: unknown } => {
    if (!isRecord(input)) return { label: fallback, input };
    const { version: asked, ...rest } = input;
    let label = fallback;
    if (asked !== undefined && asked !== null) {
      const problem = versionLabelProblem(asked);
      if (problem !== undefined)
        throw fail(
          context,
          'INVALID_ARGUMENT',
          `\`${tool.name}\`: \`version\` is not a version label: ${problem}. \`list_tree\` without arguments lists the versions.`,
        );
      if (!sources.has(asked as string)) {
        const refusal = versionNotFound(tool.name, asked as string, listed);
        throw fail(context, 'VERSION_NOT_FOUND', refusal.message, refusal.details);
      }
      label = asked as string;
    }
    const cursor = rest['cursor'];
    if (typeof cursor === 'string' && cursor !== '') {
      const end = cursor.indexOf(CURSOR_LABEL_END);
      const of = end > 0 ? cursor.slice(0, end) : undefined;
      if (of === undefined || !sources.has(of))
        throw fail(
          context,
          'INVALID_CURSOR',
          `\`${tool.name}\`: the cursor is not one this knowledge base issued. Call it again without \`cursor\` to start from the first page.`,
        );
      if (asked !== undefined && asked !== null && of !== asked)
        throw fail(
          context,
          'INVALID_CURSOR',
          `\`${tool.name}\`: the cursor continues version \`${of}\`, not \`${label}\`. Give the cursor without \`version\` to continue \`${of}\`, or call again without \`cursor\` to start version \`${label}\` from the first page.`,
        );
      label = of;
      rest['cursor'] = cursor.slice(end + 1);
    }
    return { label, input: rest };
  };

  /** Every version as the root listing names it; `answered` is the listing of the version that answered. */
  const versionsOf = async (
    label: string,
    answered: Json,
    context: KnowledgeCallContext | undefined,
  ): Promise<KnowledgeVersionInfo[]> =>
    Promise.all(
      labels.map(async (version) => {
        const root =
          version === label
            ? answered
            : ((await sources.get(version)!.listTree({ limit: 1 }, context)) as unknown as Json);
        return {
          version,
          default: version === fallback,
          activeContentRevision: root['activeContentRevision'] as ActiveContentRevision,
          publishedAt: root['publishedAt'] as string,
        };
      }),
    );

  const methods: Record<string, unknown> = {};
  for (const tool of KNOWLEDGE_TOOLS) {
    methods[tool.method] = async (input: unknown, context?: KnowledgeCallContext) => {
      const call = route(tool, input, context);
      const source = sources.get(call.label)! as unknown as Record<
        string,
        (input: unknown, context?: KnowledgeCallContext) => Promise<unknown>
      >;
      const output = relabel(await source[tool.method]!(call.input, context), call.label);
      const args = isRecord(input) ? input : {};
      const isRoot =
        tool.name === 'list_tree' &&
        (args['parentPath'] === undefined || args['parentPath'] === null) &&
        (args['cursor'] === undefined || args['cursor'] === null);
      if (isRoot && isRecord(output))
        output['versions'] = await versionsOf(call.label, output, context);
      return output;
    };
  }
  return Object.freeze({
    ...(methods as unknown as Omit<KnowledgeSource, 'warm'>),
    async warm(context?: KnowledgeWarmContext): Promise<void> {
      await Promise.all([...sources.values()].map((source) => source.warm?.(context)));
    },
    versionLabels: labels,
    defaultVersion: fallback,
  });
}

/**
 * A view of `source` that reads version `label` only: every call carries `version: label` (a call
 * naming another version is refused by the source, as any call naming it would be).
 *
 * @param source - any source (a versioned one, or a plain one whose one version is `label`).
 * @param label - the version to read.
 * @returns the view.
 */
export function versionView(source: KnowledgeSource, label: string): KnowledgeSource {
  const methods: Record<string, unknown> = {};
  const forward = source as unknown as Record<
    string,
    (input: unknown, context?: KnowledgeCallContext) => Promise<unknown>
  >;
  for (const tool of KNOWLEDGE_TOOLS) {
    methods[tool.method] = (input: unknown, context?: KnowledgeCallContext) =>
      forward[tool.method]!(
        isRecord(input) ? { ...input, version: label } : { version: label },
        context,
      );
  }
  return Object.freeze({
    ...(methods as unknown as Omit<KnowledgeSource, 'warm'>),
    ...(source.warm === undefined
      ? {}
      : { warm: (context?: KnowledgeWarmContext) => source.warm!(context) }),
  });
}
