/**
 * The output JSON Schema of `search_files`.
 *
 * @module
 */
import type { JsonSchema, StageStatus } from '../../types.js';
import type { NextAction, SearchFilesOutput, SearchItem } from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  NEXT_CURSOR,
  CURSOR_RESTARTED,
  READ_ACTIONS,
  arrayOf,
  nullable,
  objectSchema,
  optional,
  stringEnum,
  typed,
  ANSWERED_FROM,
} from '../schemas/common.js';

const ITEM = objectSchema<SearchItem>('A candidate page to read: a discovery hint, not evidence.', {
  fileId: typed('string', 'The page fileId, for read_file.'),
  sourceFileId: typed('string', 'The stable source file ID (equal to fileId).'),
  path: typed('string', 'The page path.'),
  title: typed('string', 'The page title.'),
  description: nullable('string', 'A short summary; null when the page has none.'),
  score: {
    type: 'number',
    exclusiveMinimum: 0,
    description: 'Positive, higher is better, comparable within one response only.',
  },
  matchedFields: arrayOf(
    stringEnum(['title', 'path', 'description', 'tags', 'content'], 'A field the query matched.'),
    'Fields the query matched, in this order.',
  ),
  evidenceTypes: arrayOf(
    stringEnum(['content', 'metadata', 'semantic', 'graph'], 'Why it was returned.'),
    'Why the page was returned, in this order.',
  ),
  sourceExcerpt: typed(
    'string',
    "The page's own words around the strongest match; … marks each cut.",
  ),
  contentAvailable: {
    type: 'boolean',
    enum: [true],
    description: 'Always true: the content can be read.',
  },
  readActions: READ_ACTIONS,
  sectionIds: arrayOf(
    typed('string', 'A section ID.'),
    'Up to 3 best-matching sections, best first, for read_file sectionIds; [] when the match is in the page text outside sections or its metadata.',
  ),
  heading: {
    description:
      'The innermost heading whose range holds the best match, for read_file heading; the excerpt comes from its range. null when the match comes before the first heading or is in metadata only.',
    anyOf: [
      objectSchema<NonNullable<SearchItem['heading']>>('A heading of the page.', {
        id: typed('string', 'The heading ID, to pass in read_file heading.'),
        text: typed('string', 'The heading text.'),
      }),
      { type: 'null', description: 'No heading holds the match.' },
    ],
  },
});

function stageStatus(codes: readonly string[], description: string): JsonSchema {
  return objectSchema<StageStatus<string>>(description, {
    state: stringEnum(['ready', 'disabled', 'skipped', 'unavailable'], 'Whether the stage ran.'),
    safeCode: {
      type: ['string', 'null'],
      enum: [...codes, null],
      description: 'Why it did not run; null when ready.',
    },
  });
}

/** The arguments a suggestion gives (`NextAction.input` is typed as any JSON object). */
interface NextActionInput {
  readonly path?: string;
  readonly parentPath?: string;
}

const NEXT_ACTION = objectSchema<NextAction>('A suggested next call.', {
  tool: stringEnum(['read_file', 'list_tree'], 'The tool to call.'),
  input: objectSchema<NextActionInput>('Its arguments.', {
    path: optional(typed('string', 'read_file path.')),
    parentPath: optional(typed('string', 'list_tree parentPath.')),
  }),
  reason: typed('string', 'Why.'),
});

/** Output of `search_files` (`SearchFilesOutput`). */
export const SEARCH_FILES_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<SearchFilesOutput>('Candidate pages for the query, best first.', {
    ...ANSWERED_FROM,
    items: arrayOf(ITEM, 'Candidates, best first; one per page.'),
    searchStatus: stringEnum(
      ['ok', 'no_candidates'],
      '"no_candidates" is a successful empty result: follow nextActions.',
    ),
    searchMode: stringEnum(['hybrid', 'file', 'graph'], 'The mode that ran.'),
    semanticStatus: stageStatus(
      ['SEMANTIC_DISABLED', 'SEMANTIC_NOT_USED', 'SEMANTIC_UNAVAILABLE', 'SEMANTIC_TIMEOUT'],
      'State of semantic retrieval.',
    ),
    rerankerStatus: stageStatus(
      ['RERANKER_DISABLED', 'RERANKER_UNAVAILABLE', 'RERANKER_TIMEOUT'],
      'State of reranking.',
    ),
    message: nullable('string', 'A note when there are no candidates; else null.'),
    nextActions: arrayOf(
      NEXT_ACTION,
      'Suggested next calls when there are no candidates; else [].',
    ),
    nextCursor: NEXT_CURSOR,
    cursorRestarted: optional(CURSOR_RESTARTED),
  }),
);
