/**
 * A toy seventh tool, `count_words`, as a folder of `src/agent/tools/` would hold it: its whole
 * declaration (texts, arguments, output schema, routes, client mapping), its body over a source's
 * state and its read plan. Adding it to a registry is the only other change a tool needs.
 */
import { rangeArg, stringArg } from '../../../src/agent/tools/args.js';
import { defineTool, type ToolArgs } from '../../../src/agent/tools/defineTool.js';
import { findById } from '../../../src/agent/tools/getFile/run.js';
import { objectSchema, typed } from '../../../src/agent/tools/schemas/common.js';
import { planString } from '../../../src/agent/source/readPlan.js';
import type { CallScope } from '../../../src/agent/source/callScope.js';
import type { SourceState } from '../../../src/agent/source/state.js';

/** Input of `count_words`. */
export interface CountWordsInput {
  readonly fileId: string;
  readonly top?: number | null | undefined;
}

/** Output of `count_words`. */
export interface CountWordsOutput {
  readonly fileId: string;
  readonly words: number;
  readonly longest: readonly string[];
}

/** The checked arguments of every call the body answered, in order (what a test looks at). */
export const COUNT_WORDS_CALLS: Readonly<Record<string, unknown>>[] = [];

/** `count_words`: the words of one page, from its document. */
function countWords(
  state: SourceState,
  scope: CallScope,
  args: ToolArgs<CountWordsInput>,
): CountWordsOutput {
  COUNT_WORDS_CALLS.push({ ...args });
  const fileId = args['fileId'] as string;
  const top = (args['top'] as number | undefined) ?? 1;
  const file = findById(state, scope, fileId);
  if (file.kind !== 'page')
    throw scope.fail('INVALID_ARGUMENT', '`count_words` counts the words of a page.');
  const { content } = state.catalog.read({
    documentId: fileId,
    selection: { mode: 'document' },
    maxChars: Number.MAX_SAFE_INTEGER,
  });
  const words = content.split(/\s+/).filter((w) => /\w/.test(w));
  const longest = [...words].sort((a, b) => b.length - a.length || (a < b ? -1 : 1));
  return { fileId, words: words.length, longest: longest.slice(0, top) };
}

/** The `count_words` tool. */
export const countWordsTool = defineTool({
  name: 'count_words',
  method: 'countWords',
  title: 'Count words',
  description: 'Count the words of one page.',
  inputDescription: 'Arguments of count_words.',
  args: {
    fileId: stringArg({ description: 'The fileId of a page.', required: true, nonEmpty: true }),
    top: rangeArg(1, 5, 1, 'Longest words listed,'),
  },
  outputSchema: objectSchema(
    'The page and its word count.',
    {
      fileId: typed('string', 'The page.'),
      words: typed('integer', 'Its words.'),
      longest: { type: 'array', items: typed('string', 'A word.'), description: 'Longest first.' },
    },
    ['fileId', 'words', 'longest'],
  ),
  run: countWords,
  // It reads one page's text: a stored source fetches that page's row and nothing else.
  reads: (args) => ({ file: { fileId: planString(args['fileId']), path: null }, text: true }),
  http: { routes: [{ id: 'words', path: '/files/:fileId/words' }] },
  client: { shape: { fileId: 'string' } },
});
