/**
 * The `route` stage of the client: a tool's input checked as the source checks it, then the route
 * whose path arguments it gives, filled in, as a URL on the knowledge base; and a `readActions`
 * value as a URL that stays on it.
 *
 * @module
 */
import { KnowledgeToolError, type JsonValue } from '../../agent/index.js';
import type { ToolDefinition } from '../../agent/internals.js';
import { isPlainObject } from '../../shared/values.js';
import { pathArgs, queryArgs } from '../params.js';
import type { ClientConfig } from './options.js';

/** Query arguments, by name. */
export type Query = Readonly<Record<string, unknown>>;

/** A tool's call as a request: the route's filled path and its query. */
export interface RoutedCall {
  readonly path: string;
  readonly query: Query;
}

/** The route of `tool` for `input`, or `INVALID_ARGUMENT`. */
export function routeCall(tool: ToolDefinition, input: unknown): RoutedCall {
  const i = inputOf(tool, input);
  const problem = tool.client.check?.(i);
  if (problem !== undefined) throw new KnowledgeToolError('INVALID_ARGUMENT', problem);
  const given = (name: string) => i[name] !== undefined && i[name] !== null;
  const routes = tool.http.routes;
  const route = routes.find((r) => pathArgs(r).every(given)) ?? routes[routes.length - 1]!;
  let path = route.path;
  for (const name of pathArgs(route)) {
    const encoded = segment(i[name], name, tool.name);
    path = path.replace(`:${name}`, () => encoded);
  }
  const query: Record<string, unknown> = {};
  for (const name of queryArgs(tool, route)) {
    const value = i[name];
    // A parameter given once per item: a list (or one string) is sent as repeated parameters; an
    // empty list would be sent as no parameter at all, so it is refused here as the source refuses it.
    if (tool.args[name]!.param === 'repeated' && Array.isArray(value) && value.length === 0)
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${tool.name}\`: \`${name}\` must be a non-empty string or a non-empty list of them, not [].`,
      );
    query[name] =
      tool.args[name]!.param === 'repeated' && value !== undefined && value !== null
        ? new Repeated(Array.isArray(value) ? value : [value])
        : value;
  }
  return { path, query };
}

/** The items of a query parameter given once per item (`?tags=a&tags=b`). */
export class Repeated {
  readonly items: readonly unknown[];
  constructor(items: readonly unknown[]) {
    this.items = items;
  }
}

/**
 * The URL of `route` with `query` on the knowledge base (lists comma-joined, `Repeated` items one
 * parameter each, nulls left out).
 */
export function urlOf(config: ClientConfig, route: string, query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    if (value instanceof Repeated)
      for (const item of value.items) params.append(name, String(item));
    else params.set(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const search = params.toString();
  return `${config.baseUrl}${route}${search === '' ? '' : `?${search}`}`;
}

/** A path argument (a file ID), encoded for its URL segment, or `INVALID_ARGUMENT`. */
function segment(value: unknown, name: string, operation: string): string {
  if (typeof value !== 'string' || value === '')
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${operation}\` needs \`${name}\`: a non-empty string.`,
    );
  if (value === '.' || value === '..') {
    // URLs remove `.` and `..` segments, encoded or not: the request would reach another route.
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${operation}\`: the file ID ${JSON.stringify(value)} cannot travel in a URL path. Read the file by \`path\` instead.`,
    );
  }
  return encodeURIComponent(value);
}

/** A `readActions` value as a URL on this knowledge base, or `INVALID_ARGUMENT`. */
export function followUrl(config: ClientConfig, readAction: unknown): string {
  const { base, basePath } = config;
  if (typeof readAction !== 'string' || readAction === '') {
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      '`follow` needs a `readActions` value: a URL path such as `/files/…/content`.',
    );
  }
  let target: URL;
  try {
    target = new URL(readAction, base.origin);
  } catch {
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`follow\`: ${JSON.stringify(readAction.slice(0, 200))} is not a URL path.`,
    );
  }
  // After URL parsing, so `..`, `%2e%2e` and backslashes are already resolved.
  if (
    target.origin !== base.origin ||
    target.username !== '' ||
    target.password !== '' ||
    !target.pathname.startsWith(`${basePath}/`)
  ) {
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`follow\` only reads paths under ${basePath}/ on ${base.origin}, as this server's readActions give them; ${JSON.stringify(readAction.slice(0, 200))} is not one.`,
    );
  }
  target.hash = '';
  return target.href;
}

/**
 * A tool's input as a record, refusing what the source refuses before any request: an input that is
 * not an object, and arguments the tool does not take (they would be silently dropped from the URL).
 */
function inputOf(
  tool: ToolDefinition,
  input: unknown,
): Readonly<Record<string, JsonValue | undefined>> {
  if ((input === undefined || input === null) && tool.inputOptional) return {};
  const known = Object.keys(tool.args);
  if (!isPlainObject(input))
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `\`${tool.name}\` takes an object of arguments: ${known.map((k) => `\`${k}\``).join(', ')}.`,
    );
  for (const key of Object.keys(input)) {
    if (!known.includes(key)) {
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `\`${tool.name}\` has no argument \`${key}\`. Its arguments: ${known.map((k) => `\`${k}\``).join(', ')}.`,
      );
    }
  }
  return input as Readonly<Record<string, JsonValue | undefined>>;
}
