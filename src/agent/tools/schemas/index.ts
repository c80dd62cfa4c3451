/**
 * The six tools' input and output JSON Schemas, deep-frozen.
 *
 * @module
 */
import type { JsonSchema, KnowledgeToolName } from '../../types.js';
import { EXPAND_GRAPH_INPUT_SCHEMA, EXPAND_GRAPH_OUTPUT_SCHEMA } from './expandGraph.js';
import { GET_FILE_INPUT_SCHEMA, GET_FILE_OUTPUT_SCHEMA } from './getFile.js';
import { LIST_TREE_INPUT_SCHEMA, LIST_TREE_OUTPUT_SCHEMA } from './listTree.js';
import { READ_FILE_INPUT_SCHEMA, READ_FILE_OUTPUT_SCHEMA } from './readFile.js';
import { READ_RELATED_INPUT_SCHEMA, READ_RELATED_OUTPUT_SCHEMA } from './readRelated.js';
import { SEARCH_FILES_INPUT_SCHEMA, SEARCH_FILES_OUTPUT_SCHEMA } from './searchFiles.js';

export { EXPAND_GRAPH_INPUT_SCHEMA, EXPAND_GRAPH_OUTPUT_SCHEMA } from './expandGraph.js';
export { GET_FILE_INPUT_SCHEMA, GET_FILE_OUTPUT_SCHEMA } from './getFile.js';
export { LIST_TREE_INPUT_SCHEMA, LIST_TREE_OUTPUT_SCHEMA } from './listTree.js';
export { READ_FILE_INPUT_SCHEMA, READ_FILE_OUTPUT_SCHEMA } from './readFile.js';
export { READ_RELATED_INPUT_SCHEMA, READ_RELATED_OUTPUT_SCHEMA } from './readRelated.js';
export { SEARCH_FILES_INPUT_SCHEMA, SEARCH_FILES_OUTPUT_SCHEMA } from './searchFiles.js';
export { cloneJson, deepFreeze } from './deepFreeze.js';

/** The input and output schema of one tool. */
export interface KnowledgeToolSchemas {
  readonly input: JsonSchema;
  readonly output: JsonSchema;
}

/** Every tool's schemas, by the seed's tool name. Frozen. */
export const KNOWLEDGE_TOOL_SCHEMAS: Readonly<Record<KnowledgeToolName, KnowledgeToolSchemas>> =
  Object.freeze({
    search_files: Object.freeze({
      input: SEARCH_FILES_INPUT_SCHEMA,
      output: SEARCH_FILES_OUTPUT_SCHEMA,
    }),
    read_file: Object.freeze({ input: READ_FILE_INPUT_SCHEMA, output: READ_FILE_OUTPUT_SCHEMA }),
    list_tree: Object.freeze({ input: LIST_TREE_INPUT_SCHEMA, output: LIST_TREE_OUTPUT_SCHEMA }),
    get_file: Object.freeze({ input: GET_FILE_INPUT_SCHEMA, output: GET_FILE_OUTPUT_SCHEMA }),
    read_related: Object.freeze({
      input: READ_RELATED_INPUT_SCHEMA,
      output: READ_RELATED_OUTPUT_SCHEMA,
    }),
    expand_graph: Object.freeze({
      input: EXPAND_GRAPH_INPUT_SCHEMA,
      output: EXPAND_GRAPH_OUTPUT_SCHEMA,
    }),
  });
