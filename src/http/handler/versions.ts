/**
 * The two routes of a knowledge base that are not tools: `{KB}/versions` (its versions, as its root
 * `list_tree` lists them) and `{KB}/versions/diff?from=&to=` (`diffVersions` between two of them).
 *
 * @module
 */
import type { Handler } from 'hono';
import {
  diffVersions,
  KnowledgeToolError,
  type KnowledgeCallContext,
  type KnowledgeSource,
  type KnowledgeVersionInfo,
} from '../../agent/index.js';
import { versionLabelProblem } from '../../agent/internals.js';
import type { Deadline } from '../deadline.js';
import { ParamError, readParams, type ParamRules } from '../params.js';
import type { KnowledgeVersionList } from '../types.js';
import { knowledgeBasePath, type HandlerConfig, type HandlerEnv } from './context.js';
import { ok } from './respond.js';

/** The label of a knowledge base's one version when its listing names none. */
const UNNAMED_VERSION = 'current';

/** The query rules of the two routes, by route: `/versions` takes none, `/versions/diff` two labels. */
export const VERSION_ROUTE_PARAMS: Readonly<Record<'versions' | 'versions_diff', ParamRules>> =
  Object.freeze({
    versions: Object.freeze({}),
    versions_diff: Object.freeze({ from: 'string', to: 'string' }),
  });

/** The routes as the 404 answer lists them, after the tools' routes. */
export const VERSION_ROUTE_LIST = '/versions, /versions/diff?from=&to=';

type Json = Record<string, unknown>;

function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The versions of `source`, from its root `list_tree` (no `parentPath`, no `cursor`): its `versions`,
 * or, from a source whose listing has none, its one version (named by the listing's `version`, else
 * `current`), the default.
 *
 * @param source - the knowledge base's source.
 * @param context - the call's context (signal, request ID, read-action base).
 * @param deadline - the request's deadline, raced against the call.
 */
export async function versionListOf(
  source: KnowledgeSource,
  context: KnowledgeCallContext,
  deadline: Deadline,
): Promise<KnowledgeVersionList> {
  const root = (await deadline.race(source.listTree({ limit: 1 }, context))) as unknown as Json;
  const listed = root['versions'];
  let versions: KnowledgeVersionInfo[];
  if (Array.isArray(listed)) {
    versions = listed.filter(isRecord).map((entry) => ({
      version: String(entry['version']),
      default: entry['default'] === true,
      activeContentRevision: entry[
        'activeContentRevision'
      ] as KnowledgeVersionInfo['activeContentRevision'],
      publishedAt: String(entry['publishedAt']),
    }));
  } else {
    const version = root['version'];
    const publishedAt = root['publishedAt'];
    versions = [
      {
        version: typeof version === 'string' ? version : UNNAMED_VERSION,
        default: true,
        activeContentRevision: root[
          'activeContentRevision'
        ] as KnowledgeVersionInfo['activeContentRevision'],
        ...(typeof publishedAt === 'string' ? { publishedAt } : {}),
      } as KnowledgeVersionInfo,
    ];
  }
  const fallback = versions.find((entry) => entry.default) ?? versions[0];
  return { versions, default: fallback?.version ?? UNNAMED_VERSION };
}

/** The context the two routes give their source calls. */
function contextOf(
  config: HandlerConfig,
  knowledgeBaseId: string,
  requestId: string,
  signal: AbortSignal,
): KnowledgeCallContext {
  return {
    signal,
    requestId,
    actionBase: knowledgeBasePath(config, knowledgeBaseId),
    knowledgeBaseId,
  };
}

/** `GET {KB}/versions`: `{ versions, default }`. */
export function runVersions(config: HandlerConfig): Handler<HandlerEnv> {
  return async (c) => {
    const { requestId, deadline } = c.env;
    readParams(c.env.url.searchParams, VERSION_ROUTE_PARAMS.versions, config.maxQueryChars);
    const knowledgeBaseId = c.req.param('knowledgeBaseId')!;
    const context = contextOf(config, knowledgeBaseId, requestId, deadline.signal);
    return ok(c, await versionListOf(c.get('entry').source, context, deadline), false);
  };
}

/**
 * `GET {KB}/versions/diff?from=A&to=B`: `diffVersions(source, A, B)`. A missing or malformed label is
 * 400 naming its parameter; a label the knowledge base lacks is 404 `VERSION_NOT_FOUND` naming it and
 * listing the versions.
 */
export function runVersionDiff(config: HandlerConfig): Handler<HandlerEnv> {
  return async (c) => {
    const { requestId, deadline } = c.env;
    const params = readParams(
      c.env.url.searchParams,
      VERSION_ROUTE_PARAMS.versions_diff,
      config.maxQueryChars,
    );
    const labels: Record<'from' | 'to', string> = { from: '', to: '' };
    for (const name of ['from', 'to'] as const) {
      const value = params[name];
      if (value === undefined)
        throw new ParamError(
          `Query parameter \`${name}\` is required: the label of the ${name === 'from' ? 'older' : 'newer'} version, such as \`?from=2.x&to=3.x\`. GET …/versions lists the labels.`,
        );
      const problem = versionLabelProblem(value);
      if (problem !== undefined)
        throw new ParamError(
          `Query parameter \`${name}\` is not a version label: ${problem}. GET …/versions lists the labels.`,
        );
      labels[name] = value as string;
    }
    const knowledgeBaseId = c.req.param('knowledgeBaseId')!;
    const source = c.get('entry').source;
    // The comparison reads every page of both versions: a client that hangs up stops it.
    const context = contextOf(config, knowledgeBaseId, requestId, deadline.hangUpSignal());
    const { versions } = await versionListOf(source, context, deadline);
    for (const name of ['from', 'to'] as const) {
      if (!versions.some((entry) => entry.version === labels[name])) {
        const listed = versions
          .map((entry) => `\`${entry.version}\`${entry.default ? ' (default)' : ''}`)
          .join(', ');
        throw new KnowledgeToolError(
          'VERSION_NOT_FOUND',
          `\`versions/diff\`: this knowledge base has no version \`${labels[name]}\` (query parameter \`${name}\`). Its versions: ${listed}. Pass one of them as \`${name}\`.`,
          {
            requestId,
            details: { version: labels[name], versions: versions.map((entry) => entry.version) },
          },
        );
      }
    }
    const diff = await deadline.race(diffVersions(source, labels.from, labels.to, context));
    return ok(c, diff, false);
  };
}
