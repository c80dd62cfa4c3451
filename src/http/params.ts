/**
 * Query parameters of the HTTP routes: which each route takes and of what type, derived from the
 * tools' argument rules (the registry). Unknown parameters, repeated ones (but those given once per
 * item, such as `tags`) and malformed numbers or booleans are refused with `INVALID_ARGUMENT` naming
 * the parameter; ranges and the rest of each tool's rules are the source's.
 *
 * @module
 */
import { countCodePoints } from '../shared/codePoints.js';
import { show } from '../shared/show.js';
import {
  looseBoolean,
  looseInteger,
  type ParamKind,
  type ToolDefinition,
  type ToolRouteSpec,
  KNOWLEDGE_TOOLS,
  type KnowledgeRouteId,
  type KnowledgeToolRegistry,
} from '../agent/internals.js';

/** The parameters a route takes, by name. */
export type ParamRules = Readonly<Record<string, ParamKind>>;

/** A parameter a route refused, with the message the response carries. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
}

/** The arguments a route takes from its path: the `:name` segments of its pattern. */
export function pathArgs(route: ToolRouteSpec): readonly string[] {
  return route.path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/** The arguments a route takes from its query string, in URL order. */
export function queryArgs(tool: ToolDefinition, route: ToolRouteSpec): readonly string[] {
  if (route.query !== undefined) return route.query;
  const inPath = pathArgs(route);
  return Object.keys(tool.args).filter((name) => !inPath.includes(name));
}

/** The query rules of one route: each query argument's parameter kind. */
export function routeRules(tool: ToolDefinition, route: ToolRouteSpec): ParamRules {
  const rules: Record<string, ParamKind> = {};
  for (const name of queryArgs(tool, route)) rules[name] = tool.args[name]!.param;
  return Object.freeze(rules);
}

/**
 * Rules of each route's query string, by route ID (`list` is the knowledge-base list).
 *
 * @param registry - the tools whose routes are read.
 */
export function routeParamsOf(
  registry: KnowledgeToolRegistry,
): Readonly<Record<string, ParamRules>> {
  const out: Record<string, ParamRules> = { list: Object.freeze({}) };
  for (const tool of registry) {
    for (const route of tool.http.routes) out[route.id] = routeRules(tool, route);
  }
  return Object.freeze(out);
}

/** Rules of each route's query string, derived from the six tools. */
export const ROUTE_PARAMS = routeParamsOf(KNOWLEDGE_TOOLS) as Readonly<
  Record<'list' | KnowledgeRouteId, ParamRules>
>;

/**
 * Read a query string by a route's rules.
 *
 * @param params - the request's query.
 * @param rules - the parameters the route takes.
 * @param maxQueryChars - longest `query`, in code points.
 * @returns the parameters given, typed; absent ones are absent.
 * @throws ParamError for an unknown, repeated or malformed parameter.
 */
export function readParams(
  params: URLSearchParams,
  rules: ParamRules,
  maxQueryChars: number,
): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  const known = Object.keys(rules);
  for (const [name, raw] of params) {
    const kind = Object.hasOwn(rules, name) ? rules[name] : undefined;
    if (kind === undefined) {
      const takes =
        known.length === 0
          ? 'This route takes no query parameters.'
          : `This route takes ${known.map((k) => `\`${k}\``).join(', ')}.`;
      throw new ParamError(`Unknown query parameter ${show(name)}. ${takes}`);
    }
    if (kind === 'repeated') {
      // Once per item: `?tags=a&tags=b` is `["a", "b"]`.
      const items = Object.hasOwn(out, name) ? (out[name] as string[]) : (out[name] = []);
      items.push(raw);
      continue;
    }
    if (Object.hasOwn(out, name))
      throw new ParamError(`Query parameter \`${name}\` is given more than once; give it once.`);
    out[name] = readValue(name, kind, raw);
  }
  const query = out['query'];
  // After trimming, as the source counts it.
  if (
    typeof query === 'string' &&
    query.length > maxQueryChars &&
    countCodePoints(query.trim()) > maxQueryChars
  ) {
    throw new ParamError(
      `Query parameter \`query\` is longer than ${maxQueryChars} characters; send the question itself, shortened.`,
    );
  }
  return out;
}

function readValue(
  name: string,
  kind: ParamKind,
  raw: string,
): string | number | boolean | string[] {
  switch (kind) {
    case 'string':
      return raw;
    case 'integer':
      return readInteger(name, raw);
    case 'boolean': {
      const flag = looseBoolean(raw);
      if (flag !== undefined) return flag;
      throw new ParamError(
        `Query parameter \`${name}\` must be \`true\` or \`false\`, not ${show(raw)}.`,
      );
    }
    case 'list':
      return readList(name, raw);
    case 'repeated':
      return [raw];
  }
}

function readInteger(name: string, raw: string): number {
  const value = looseInteger(raw);
  if (value === undefined)
    throw new ParamError(
      `Query parameter \`${name}\` must be a whole number in decimal digits, not ${show(raw)}.`,
    );
  return value;
}

function readList(name: string, raw: string): string[] {
  if (raw === '') return [];
  const items = raw.split(',');
  if (items.some((item) => item === '')) {
    throw new ParamError(
      `Query parameter \`${name}\` must be IDs separated by single commas, with none empty: got ${show(raw)}.`,
    );
  }
  return items;
}
