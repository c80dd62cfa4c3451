/**
 * The output JSON Schema of `expand_graph`.
 *
 * @module
 */
import type { JsonSchema } from '../../types.js';
import type { ExpandGraphOutput, GraphRelationship } from './types.js';
import { deepFreeze } from '../../../shared/deepFreeze.js';
import {
  DIRECTION,
  NEXT_CURSOR,
  CURSOR_RESTARTED,
  READ_ACTIONS,
  RELATION_TYPE,
  arrayOf,
  objectSchema,
  optional,
  typed,
  ANSWERED_FROM,
} from '../schemas/common.js';

const RELATIONSHIP = objectSchema<GraphRelationship>(
  'A page reached from the seed: a discovery hint, not evidence.',
  {
    fileId: typed('string', 'The page reached.'),
    path: typed('string', 'Its path.'),
    title: typed('string', 'Its title.'),
    relationType: RELATION_TYPE,
    direction: DIRECTION,
    weight: { type: 'number', minimum: 0, maximum: 1, description: 'Strength in [0, 1].' },
    readActions: READ_ACTIONS,
    depth: { type: 'integer', minimum: 1, description: 'Hops from the seed, from 1.' },
    viaFileId: typed('string', 'The page this relationship was found from.'),
  },
);

/** Output of `expand_graph` (`ExpandGraphOutput`). */
export const EXPAND_GRAPH_OUTPUT_SCHEMA: JsonSchema = deepFreeze(
  objectSchema<ExpandGraphOutput>('Relationships breadth first from the seed page.', {
    ...ANSWERED_FROM,
    seedFile: objectSchema<ExpandGraphOutput['seedFile']>('The seed page.', {
      fileId: typed('string', 'Its fileId.'),
      path: typed('string', 'Its path.'),
    }),
    relationships: arrayOf(RELATIONSHIP, 'At most 50 per page; no page twice, never the seed.'),
    graphPaths: arrayOf(
      typed('string', 'A _graph/by-file/… path.'),
      'The _graph/by-file/… files of the pages expanded.',
    ),
    nextCursor: NEXT_CURSOR,
    cursorRestarted: optional(CURSOR_RESTARTED),
  }),
);
