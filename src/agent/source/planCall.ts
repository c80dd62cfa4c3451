/**
 * The one read planner of the stored sources: what a call reads, from its tool's plan (`reads` of
 * the tool's definition) over its arguments. The static and PostgreSQL sources both plan here.
 *
 * @module
 */
import { isPlainObject } from '../../shared/values.js';
import type { ToolDefinition } from '../tools/defineTool.js';
import { peekCursorParams } from './cursor.js';
import { READ_EVERYTHING, type ReadPlan } from './readPlan.js';

/**
 * The arguments a call is planned from: its input, with the parameters a cursor carries filling
 * those not given (a cursor alone carries the call's arguments). Unverified: the call checks the
 * cursor and its input itself.
 */
function plannedArgs(input: unknown): Readonly<Record<string, unknown>> {
  if (!isPlainObject(input)) return {};
  const params = peekCursorParams(input['cursor']);
  if (params === undefined) return input;
  const filled: Record<string, unknown> = { ...input };
  for (const [name, value] of Object.entries(params))
    if (filled[name] === undefined || filled[name] === null) filled[name] = value;
  return filled;
}

/**
 * What a call of `tool` with `input` reads: the tool's plan for its arguments (a cursor's filled in),
 * or the whole revision for a tool without one.
 *
 * @param tool - the tool called.
 * @param input - the call's raw input.
 */
export function readPlanOf(tool: ToolDefinition, input: unknown): ReadPlan {
  return tool.reads === undefined ? READ_EVERYTHING : tool.reads(plannedArgs(input));
}
