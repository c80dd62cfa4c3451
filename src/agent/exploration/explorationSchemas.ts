/**
 * JSON Schemas of the exploration tools, built on the six base tools' schemas (`src/agent/tools/schemas`):
 * `search_files` with an optional query, `search_files` and `read_file` outputs carrying the session's
 * status (and `repeated`), and `exploration_status`.
 */
import type { JsonObject, JsonSchema } from '../types.js';
import { arrayOf, objectSchema, typed } from '../tools/schemas/common.js';
import { deepFreeze } from '../../shared/deepFreeze.js';
import { READ_FILE_OUTPUT_SCHEMA, SEARCH_FILES_OUTPUT_SCHEMA } from '../tools/schemas/index.js';
import { searchFilesTool } from '../tools/searchFiles/definition.js';

const count = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, description });

/** The session's budgets and advice (`ExplorationStatus`). */
export const EXPLORATION_STATUS_SCHEMA: JsonSchema = deepFreeze(
  objectSchema(
    'The exploration budgets and stop advice after this call.',
    {
      searchesUsed: count(
        'Searches made: the first and the follow-ups (pages of one search are not counted).',
      ),
      followUpsLeft: count('Follow-up searches left.'),
      readsUsed: count('Reads that cost budget (rereads are free).'),
      readsLeft: count('Reads left.'),
      stopReason: {
        type: ['string', 'null'],
        enum: ['no_new_sources', 'budget_exhausted', null],
        description:
          'Advice: "budget_exhausted" (no follow-up or no read left) or "no_new_sources" (the latest search found only pages already read, or none): answer from the pages read. null: keep exploring if needed.',
      },
    },
    ['searchesUsed', 'followUpsLeft', 'readsUsed', 'readsLeft', 'stopReason'],
  ),
);

/** A copy of an object schema with extra properties, all required. */
function extend(base: JsonSchema, description: string, extra: JsonObject): JsonSchema {
  const properties = { ...(base['properties'] as JsonObject), ...extra };
  return deepFreeze(
    objectSchema(description, properties, [
      ...(base['required'] as readonly string[]),
      ...Object.keys(extra),
    ]),
  );
}

/** Input of the exploration `search_files`: the base input with `query` optional (null: the question). */
export const EXPLORATION_SEARCH_INPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema(
    'Arguments of search_files in a bounded exploration.',
    {
      ...(searchFilesTool.inputSchema['properties'] as JsonObject),
      query: {
        type: ['string', 'null'],
        description:
          "null (or the user's complete question) for the first search, which must be the question. A follow-up search uses words from pages read, and needs a new page read since the previous search.",
      },
    },
    [],
  ),
);

/** Output of the exploration `search_files`: the base output and `exploration`. */
export const EXPLORATION_SEARCH_OUTPUT_SCHEMA: JsonSchema = extend(
  SEARCH_FILES_OUTPUT_SCHEMA,
  'Candidate pages for the query, best first, and the exploration status.',
  {
    exploration: EXPLORATION_STATUS_SCHEMA,
  },
);

/** Output of the exploration `read_file`: the base output, `repeated` and `exploration`. */
export const EXPLORATION_READ_OUTPUT_SCHEMA: JsonSchema = extend(
  READ_FILE_OUTPUT_SCHEMA,
  'The file and its content, whether it was a reread, and the exploration status.',
  {
    repeated: typed(
      'boolean',
      'true when this file was already read with the same selection in this exploration: the earlier result, at no cost.',
    ),
    exploration: EXPLORATION_STATUS_SCHEMA,
  },
);

/** Input of `exploration_status`: no arguments. */
export const EXPLORATION_STATUS_INPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema('exploration_status takes no arguments.', {}, []),
);

const SELECTION = (READ_FILE_OUTPUT_SCHEMA['properties'] as { file: { properties: JsonObject } })
  .file.properties['selection'] as JsonSchema;

const EVIDENCE_ITEM = objectSchema(
  'A page read: a source the answer may use.',
  {
    fileId: typed('string', 'The page fileId.'),
    path: typed('string', 'The page path.'),
    title: typed('string', 'The page title.'),
    revision: { type: ['string', 'integer'], description: "The page's revision." },
    snapshotId: typed('string', 'The snapshot ID to cite.'),
    selection: {
      anyOf: (SELECTION['anyOf'] as JsonSchema[]).slice(0, 2),
      description: 'What was read: the whole page, or sections.',
    },
    heading: {
      ...((READ_FILE_OUTPUT_SCHEMA['properties'] as { file: { properties: JsonObject } }).file
        .properties['heading'] as JsonObject),
      description:
        'Present only for a heading read: the heading and its range in the whole page (selection is document).',
    },
    chars: count(
      'Code points of the content read (the content itself is in the read_file result).',
    ),
  },
  ['fileId', 'path', 'title', 'revision', 'snapshotId', 'selection', 'chars'],
);

/** Output of `exploration_status`. */
export const EXPLORATION_STATUS_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema(
    'The question, the budgets and stop advice, and the pages read so far.',
    {
      question: typed('string', 'The question being explored.'),
      status: EXPLORATION_STATUS_SCHEMA,
      evidence: arrayOf(
        EVIDENCE_ITEM,
        'The pages read, in read order; navigation files, search excerpts and relationships are never evidence.',
      ),
    },
    ['question', 'status', 'evidence'],
  ),
);
