/**
 * `callKnowledgeTool`: dispatch one tool call of any runtime's tool-call loop by name, with arguments
 * as an object or JSON text.
 *
 * @module
 */
import { KnowledgeToolError } from '../errors/index.js';
import type {
  KnowledgeToolCallOptions,
  KnowledgeToolDefinition,
  KnowledgeToolResult,
} from './knowledgeToolDefinition.js';
import { errorResult } from './toolResult.js';

/**
 * Run the tool named `name` with `args` and resolve to its result; never throws. `args` may be JSON
 * text (as OpenAI sends `arguments`; empty text means `{}`) or a value. An unknown name or malformed
 * JSON is an `INVALID_ARGUMENT` result naming the fix: the call is at fault, not the knowledge base
 * (`NOT_FOUND` is kept for files, and would send an agent looking for a missing file).
 *
 * @param tools - definitions from `knowledgeTools` (or `explorationTools`).
 * @param name - the tool name the model called, prefix included.
 * @param args - the call's arguments: a JSON object, or its JSON text.
 * @param context - the caller's `signal` and `requestId`.
 * @returns `{ isError, structuredContent }`, as `execute` resolves.
 * @example
 * ```ts
 * for (const call of response.output.filter((item) => item.type === 'function_call')) {
 *   const result = await callKnowledgeTool(tools, call.name, call.arguments);
 *   input.push({ type: 'function_call_output', call_id: call.call_id, output: JSON.stringify(result.structuredContent) });
 * }
 * ```
 */
export async function callKnowledgeTool(
  tools: readonly KnowledgeToolDefinition[],
  name: string,
  args: unknown,
  context?: KnowledgeToolCallOptions,
): Promise<KnowledgeToolResult> {
  const requestId = typeof context?.requestId === 'string' ? context.requestId : undefined;
  try {
    const tool = tools.find((candidate) => candidate.name === name);
    if (tool === undefined) {
      const known = tools.map((candidate) => `\`${candidate.name}\``).join(', ');
      const asked = typeof name === 'string' ? `\`${name.slice(0, 100)}\`` : 'a non-string name';
      throw new KnowledgeToolError(
        'INVALID_ARGUMENT',
        `There is no tool ${asked}. Call one of: ${known || '(none)'}.`,
        { requestId },
      );
    }
    return await tool.execute(
      typeof args === 'string' ? parseArguments(tool.name, args, requestId) : args,
      context,
    );
  } catch (error) {
    return errorResult(error, requestId);
  }
}

function parseArguments(toolName: string, text: string, requestId: string | undefined): unknown {
  if (text.trim() === '') return {};
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new KnowledgeToolError(
      'INVALID_ARGUMENT',
      `The arguments of \`${toolName}\` are not valid JSON. Send a JSON object such as {"query": "…"}.`,
      { requestId },
    );
  }
}
