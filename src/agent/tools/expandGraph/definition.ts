/**
 * `expand_graph`: relationships breadth first from a seed page.
 *
 * @module
 */
import { CURSOR_ARG, rangeArg, stringArg } from '../args.js';
import { defineTool } from '../defineTool.js';
import { expandGraph } from './run.js';
import { planInteger, planString } from '../../source/readPlan.js';
import { CURSOR_ADVICE } from '../schemas/common.js';
import { EXPAND_GRAPH_OUTPUT_SCHEMA } from './outputSchema.js';

/** The `expand_graph` tool. */
export const expandGraphTool = defineTool({
  name: 'expand_graph',
  method: 'expandGraph',
  title: 'Expand the knowledge graph',
  description: [
    'Explore pages related to a promising page, breadth first up to depth hops, following the fanout strongest relationships of each file.',
    'Read returned pages with read_file before using them as evidence; never build _graph paths yourself.',
    CURSOR_ADVICE,
  ].join(' '),
  args: {
    fileId: stringArg({
      description: 'The fileId of the seed page.',
      required: true,
      nonEmpty: true,
    }),
    depth: rangeArg(1, 3, 1, 'Hops from the seed,'),
    fanout: rangeArg(1, 50, 10, 'Strongest relationships followed per file,'),
    cursor: CURSOR_ARG,
  },
  outputSchema: EXPAND_GRAPH_OUTPUT_SCHEMA,
  run: expandGraph,
  reads: (args) => {
    const seed = planString(args['fileId']);
    return seed === null
      ? {}
      : {
          walk: {
            seed,
            depth: planInteger(args['depth'], 1, 3, 1),
            fanout: planInteger(args['fanout'], 1, 50, 10),
          },
        };
  },
  http: { routes: [{ id: 'expand', listed: 6, path: '/graph/expand', required: ['fileId'] }] },
  client: { shape: { relationships: 'array' } },
});
