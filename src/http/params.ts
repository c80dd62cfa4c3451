/**
 * Query parameters of the HTTP routes: which each route takes and of what type. Unknown and repeated
 * parameters and malformed numbers or booleans are refused with `INVALID_ARGUMENT` naming the
 * parameter; ranges and the rest of each tool's rules are the source's.
 *
 * @module
 */
import { countCodePoints } from '../internal/codePoints.js';
import { show } from '../agent/internal/show.js';

/** How a query parameter is read. */
type ParamKind = 'string' | 'integer' | 'boolean' | 'list';

/** The parameters a route takes, by name. */
export type ParamRules = Readonly<Record<string, ParamKind>>;

/** A parameter a route refused, with the message the response carries. */
export class ParamError extends Error {
  override readonly name = 'ParamError';
}

const INTEGER_MAX_DIGITS = 15;

/** Rules of each route's query string. */
export const ROUTE_PARAMS = Object.freeze({
  list: {},
  tree: { parentPath: 'string', cursor: 'string', limit: 'integer' },
  file: {},
  contentById: { sectionIds: 'list', mode: 'string', maxChars: 'integer' },
  contentByPath: { path: 'string', sectionIds: 'list', mode: 'string', maxChars: 'integer' },
  related: { cursor: 'string', limit: 'integer' },
  expand: { fileId: 'string', depth: 'integer', fanout: 'integer', cursor: 'string' },
  search: {
    query: 'string',
    mode: 'string',
    graphDepth: 'integer',
    graphFanout: 'integer',
    rerank: 'boolean',
    cursor: 'string',
    limit: 'integer',
  },
} satisfies Record<string, ParamRules>);

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
    case 'boolean':
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      throw new ParamError(
        `Query parameter \`${name}\` must be \`true\` or \`false\`, not ${show(raw)}.`,
      );
    case 'list':
      return readList(name, raw);
  }
}

function readInteger(name: string, raw: string): number {
  let i = raw.charCodeAt(0) === 45 /* - */ ? 1 : 0;
  const digits = raw.length - i;
  let ok = digits > 0 && digits <= INTEGER_MAX_DIGITS;
  for (; ok && i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c < 48 || c > 57) ok = false;
  }
  if (!ok)
    throw new ParamError(
      `Query parameter \`${name}\` must be a whole number in decimal digits, not ${show(raw)}.`,
    );
  return Number(raw);
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
