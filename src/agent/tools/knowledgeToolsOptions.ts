/**
 * Checking the options of `knowledgeTools`: a bad option is a programming error, thrown at startup
 * as the core's `KnowledgeError` `INVALID_INPUT` (as `createCatalogSource` does).
 *
 * @module
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { ToolDefinition } from './defineTool.js';
import type { KnowledgeToolName, KnowledgeToolRegistry } from './registry.js';

/** Options of `knowledgeTools`. */
export interface KnowledgeToolsOptions {
  /** Prepended as is to every tool name (`kb_` gives `kb_search_files`): letters, digits, `_` and `-`, at most 52. */
  readonly prefix?: string | undefined;
  /** The tools to define (the seed's names); default all six. Definitions keep the seed's order. */
  readonly include?: readonly KnowledgeToolName[] | undefined;
}

/** Longest prefix: OpenAI and Anthropic allow 64-character tool names; the longest seed name has 12. */
const MAX_PREFIX = 52;

/**
 * Check the arguments of `knowledgeTools` and return the tools to define, in the registry's order.
 *
 * @param registry - the tools that may be defined.
 * @param source - must have the method of every tool defined.
 * @param options - `{ prefix?, include? }`.
 * @throws {KnowledgeError} `INVALID_INPUT` naming the option and the allowed values.
 */
export function checkToolsOptions(
  registry: KnowledgeToolRegistry,
  source: unknown,
  options: unknown,
): { readonly prefix: string; readonly tools: readonly ToolDefinition[] } {
  if (
    options !== undefined &&
    (typeof options !== 'object' || options === null || Array.isArray(options))
  ) {
    fail(
      ['options'],
      'knowledgeTools options must be an object such as { prefix: "kb_" }, or omitted.',
    );
  }
  const record = (options ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (key !== 'prefix' && key !== 'include')
      fail(
        ['options', key],
        `knowledgeTools does not take the option \`${key}\`: use \`prefix\` or \`include\`.`,
      );
  }
  const prefix = record['prefix'] ?? '';
  if (
    typeof prefix !== 'string' ||
    prefix.length > MAX_PREFIX ||
    !/^[A-Za-z0-9_-]*$/.test(prefix)
  ) {
    fail(
      ['options', 'prefix'],
      `knowledgeTools \`prefix\` must be a string of at most ${MAX_PREFIX} letters, digits, "_" or "-" (tool names are limited to 64 such characters), such as "kb_".`,
    );
  }
  const tools = checkInclude(registry, record['include']);
  if (typeof source !== 'object' || source === null)
    fail(
      ['source'],
      'knowledgeTools needs a KnowledgeSource, such as createCatalogSource(catalog).',
    );
  for (const { name, method } of tools) {
    if (typeof (source as Record<string, unknown>)[method] !== 'function') {
      fail(
        ['source', method],
        `knowledgeTools: the source has no \`${method}\` method, which \`${name}\` calls. Pass a KnowledgeSource, or leave \`${name}\` out of \`include\`.`,
      );
    }
  }
  return { prefix, tools };
}

function checkInclude(
  registry: KnowledgeToolRegistry,
  include: unknown,
): readonly ToolDefinition[] {
  if (include === undefined) return registry;
  const names: readonly string[] = registry.map((tool) => tool.name);
  const allowed = names.map((name) => `"${name}"`).join(', ');
  if (!Array.isArray(include))
    fail(
      ['options', 'include'],
      `knowledgeTools \`include\` must be an array of tool names: ${allowed}.`,
    );
  const wanted = new Set<string>();
  include.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || !names.includes(name)) {
      fail(
        ['options', 'include', index],
        `knowledgeTools \`include[${index}]\` is not a tool name; use ${allowed}.`,
      );
    }
    if (wanted.has(name))
      fail(
        ['options', 'include', index],
        `knowledgeTools \`include\` names "${name}" twice; name each tool once.`,
      );
    wanted.add(name);
  });
  return registry.filter((tool) => wanted.has(tool.name));
}

function fail(path: readonly (string | number)[], message: string): never {
  throw new KnowledgeError([{ code: 'INVALID_INPUT', message, path }]);
}
