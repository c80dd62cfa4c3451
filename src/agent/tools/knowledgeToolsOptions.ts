/**
 * Checking the options of `knowledgeTools`: a bad option is a programming error, thrown at startup
 * as the core's `KnowledgeError` `INVALID_INPUT` (as `createCatalogSource` does).
 *
 * @module
 */
import { KnowledgeError } from '../../errors/KnowledgeError.js';
import type { KnowledgeSource, KnowledgeToolName } from '../types.js';
import { KNOWLEDGE_TOOL_NAMES } from './descriptions.js';

/** Options of `knowledgeTools`. */
export interface KnowledgeToolsOptions {
  /** Prepended as is to every tool name (`kb_` gives `kb_search_files`): letters, digits, `_` and `-`, at most 52. */
  readonly prefix?: string | undefined;
  /** The tools to define (the seed's names); default all six. Definitions keep the seed's order. */
  readonly include?: readonly KnowledgeToolName[] | undefined;
}

/** The method of `KnowledgeSource` behind each tool. */
export const SOURCE_METHOD: Readonly<
  Record<KnowledgeToolName, Exclude<keyof KnowledgeSource, 'warm'>>
> = Object.freeze({
  search_files: 'searchFiles',
  read_file: 'readFile',
  list_tree: 'listTree',
  get_file: 'getFile',
  read_related: 'readRelated',
  expand_graph: 'expandGraph',
});

/** Longest prefix: OpenAI and Anthropic allow 64-character tool names; the longest seed name has 12. */
const MAX_PREFIX = 52;

/**
 * Check the arguments of `knowledgeTools` and return the tool names to define, in the seed's order.
 *
 * @throws {KnowledgeError} `INVALID_INPUT` naming the option and the allowed values.
 */
export function checkToolsOptions(
  source: unknown,
  options: unknown,
): { readonly prefix: string; readonly names: readonly KnowledgeToolName[] } {
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
  const names = checkInclude(record['include']);
  if (typeof source !== 'object' || source === null)
    fail(
      ['source'],
      'knowledgeTools needs a KnowledgeSource, such as createCatalogSource(catalog).',
    );
  for (const name of names) {
    const method = SOURCE_METHOD[name];
    if (typeof (source as Record<string, unknown>)[method] !== 'function') {
      fail(
        ['source', method],
        `knowledgeTools: the source has no \`${method}\` method, which \`${name}\` calls. Pass a KnowledgeSource, or leave \`${name}\` out of \`include\`.`,
      );
    }
  }
  return { prefix, names };
}

function checkInclude(include: unknown): readonly KnowledgeToolName[] {
  if (include === undefined) return KNOWLEDGE_TOOL_NAMES;
  const allowed = KNOWLEDGE_TOOL_NAMES.map((name) => `"${name}"`).join(', ');
  if (!Array.isArray(include))
    fail(
      ['options', 'include'],
      `knowledgeTools \`include\` must be an array of tool names: ${allowed}.`,
    );
  const wanted = new Set<string>();
  include.forEach((name: unknown, index) => {
    if (typeof name !== 'string' || !(KNOWLEDGE_TOOL_NAMES as readonly string[]).includes(name)) {
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
  return KNOWLEDGE_TOOL_NAMES.filter((name) => wanted.has(name));
}

function fail(path: readonly (string | number)[], message: string): never {
  throw new KnowledgeError([{ code: 'INVALID_INPUT', message, path }]);
}
