/**
 * `search_files`: ranked page candidates for a question (never evidence).
 *
 * @module
 */
import {
  booleanArg,
  CURSOR_ARG,
  enumArg,
  rangeArg,
  stringArg,
  stringOrListArg,
  textArg,
} from '../args.js';
import { defineTool } from '../defineTool.js';
import { searchFiles } from './run.js';
import { CURSOR_ADVICE, thousands } from '../schemas/common.js';
import { SEARCH_FILES_OUTPUT_SCHEMA } from './outputSchema.js';

/** Longest `query`, in code points after trimming (also the exploration question's and the HTTP default). */
export const MAX_QUERY_CODE_POINTS = 2000;

/** Most values of the `pathPrefix` and `tags` filters. */
export const MAX_FILTER_VALUES = 20;

/** The `search_files` tool. */
export const searchFilesTool = defineTool({
  name: 'search_files',
  method: 'searchFiles',
  title: 'Search knowledge files',
  description: [
    "Find pages that may answer a question. Start every question here, with the user's complete standalone question as query and the default hybrid mode; search again (at most twice) only with words from pages you have read.",
    'Results are candidates, not evidence: read the pages (pages/**) with read_file before answering, and track the fileId and path of what you read to avoid rereads.',
    'searchStatus "no_candidates" is a successful empty result: then read index.md or call list_tree. SEARCH_TIMEOUT and SEARCH_UNAVAILABLE are errors, not empty results.',
    CURSOR_ADVICE,
  ].join(' '),
  args: {
    query: textArg({
      maxCodePoints: MAX_QUERY_CODE_POINTS,
      description: `The user's complete standalone question, up to ${thousands(MAX_QUERY_CODE_POINTS)} characters.`,
      hint: 'Send the complete standalone question',
    }),
    mode: enumArg(
      ['hybrid', 'file', 'graph'],
      'hybrid',
      '"hybrid" searches content and metadata, "file" metadata only, "graph" adds related pages of the hits.',
    ),
    graphDepth: rangeArg(1, 3, 1, 'Graph mode: relationship hops,'),
    graphFanout: rangeArg(1, 50, 10, 'Graph mode: hits expanded and relationships per file,'),
    rerank: booleanArg(
      'Reorder the top candidates with the configured reranker, if any. Default false.',
    ),
    cursor: CURSOR_ARG,
    limit: rangeArg(1, 50, 10, 'Candidates per page,'),
    pathPrefix: stringOrListArg({
      description: `Only pages whose path starts with this prefix (such as "pages/guide/") or one of these (up to ${MAX_FILTER_VALUES}).`,
      maxItems: MAX_FILTER_VALUES,
      maxLength: 1000,
      path: true,
    }),
    tags: stringOrListArg({
      description: `Only pages whose front matter tags hold this tag, or all of these (up to ${MAX_FILTER_VALUES}).`,
      maxItems: MAX_FILTER_VALUES,
      maxLength: 200,
    }),
    locale: stringArg({
      description: 'Only pages of this locale, such as "en" or "zh-CN".',
      nonEmpty: true,
    }),
  },
  outputSchema: SEARCH_FILES_OUTPUT_SCHEMA,
  run: searchFiles,
  reads: () => ({ search: true }),
  http: {
    routes: [{ id: 'search', listed: 7, path: '/search', required: ['query'] }],
    timeoutCode: 'SEARCH_TIMEOUT',
    abortOnHangUp: true,
  },
  client: { shape: { items: 'array' } },
});
