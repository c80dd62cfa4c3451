/**
 * The routes a registry's tools are served on: the table the handler registers, the list its 404
 * answer names, and the hint for a file ID whose `/` was not percent-encoded.
 *
 * @module
 */
import type {
  KnowledgeToolRegistry,
  ToolDefinition,
  ToolRouteSpec,
} from '../../agent/internals.js';
import { pathArgs, routeRules, type ParamRules } from '../params.js';

/** One route of the table: its tool, its pattern, its query rules and the arguments of its path. */
export interface RouteEntry {
  readonly tool: ToolDefinition;
  readonly route: ToolRouteSpec;
  readonly rules: ParamRules;
  readonly inPath: readonly string[];
}

/**
 * The route table of a registry: every route of every tool, those with fewer path arguments first so
 * that `/files/content` is not read as the file ID `content`.
 */
export function routeTable(registry: KnowledgeToolRegistry): readonly RouteEntry[] {
  const table = registry.flatMap((tool) =>
    tool.http.routes.map((route) => ({
      tool,
      route,
      rules: routeRules(tool, route),
      inPath: pathArgs(route),
    })),
  );
  return table.sort((a, b) => a.inPath.length - b.inPath.length);
}

/**
 * For a path under `files/` that no route takes, because the file ID in it holds an unencoded `/`: the
 * URL to use, with the ID percent-encoded (`…/files/guides%2Fintro/content`); else `''`.
 */
export function encodedHint(url: URL, basePath: string): string {
  const prefix = `${basePath}/knowledge-bases/`;
  const path = url.pathname;
  if (!path.startsWith(prefix)) return '';
  const kbEnd = path.indexOf('/', prefix.length);
  if (kbEnd < 0 || !path.startsWith('/files/', kbEnd)) return '';
  const rest = path.slice(kbEnd + '/files/'.length).split('/');
  const last = rest[rest.length - 1];
  const tail = last === 'content' || last === 'related' ? `/${last}` : '';
  const segments = tail === '' ? rest : rest.slice(0, -1);
  if (segments.length < 2 || segments.some((s) => s === '')) return '';
  let fileId: string;
  try {
    fileId = segments.map((s) => decodeURIComponent(s)).join('/');
  } catch {
    return '';
  }
  const fixed = `${path.slice(0, kbEnd)}/files/${encodeURIComponent(fileId)}${tail}${url.search}`;
  return ` A file ID that holds \`/\` must be percent-encoded in the path: if the file ID is ${JSON.stringify(fileId)}, request ${fixed}.`;
}

/** The routes as the 404 answer lists them: the spec's order, `{name}` for path arguments. */
export function routeList(registry: KnowledgeToolRegistry): string {
  const routes = registry.flatMap((tool) => tool.http.routes);
  const place = (route: ToolRouteSpec) => route.listed ?? Number.MAX_SAFE_INTEGER;
  return [...routes]
    .sort((a, b) => place(a) - place(b))
    .map((route) => {
      const path = route.path
        .split('/')
        .map((segment) => (segment.startsWith(':') ? `{${segment.slice(1)}}` : segment))
        .join('/');
      const first = route.required?.[0];
      return first === undefined ? path : `${path}?${first}=`;
    })
    .join(', ');
}
