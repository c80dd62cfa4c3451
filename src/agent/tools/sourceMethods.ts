/**
 * The one check of the read methods every `KnowledgeSource` has (one per tool of the registry), that
 * exploration and the HTTP handler use on what the app hands them.
 *
 * @module
 */
import { KNOWLEDGE_TOOLS, type KnowledgeToolRegistry } from './registry.js';

/**
 * The tools of `registry` in the order `shared/spec/http.md` lists their routes (`list_tree` first,
 * then the file routes, …), which is also the order of the `KnowledgeSource` interface.
 */
function inSpecOrder(registry: KnowledgeToolRegistry): KnowledgeToolRegistry {
  const place = (tool: KnowledgeToolRegistry[number]) =>
    Math.min(...tool.http.routes.map((route) => route.listed ?? Number.MAX_SAFE_INTEGER));
  return [...registry].sort((a, b) => place(a) - place(b));
}

/**
 * The source methods of each registry in spec order, sorted once: the HTTP handler checks the source
 * of every request it admits, and sorting the registry each time was an eighth of the CPU a small
 * read spent in this package (a profile of the HTTP load run).
 */
const METHODS_IN_ORDER = new WeakMap<KnowledgeToolRegistry, readonly string[]>();

/** The source methods of `registry`, in the order of `inSpecOrder`. */
function methodsInOrder(registry: KnowledgeToolRegistry): readonly string[] {
  let methods = METHODS_IN_ORDER.get(registry);
  if (methods === undefined) {
    methods = inSpecOrder(registry).map((tool) => tool.method);
    METHODS_IN_ORDER.set(registry, methods);
  }
  return methods;
}

/**
 * The first source method `value` lacks, for an error message; `undefined` when it has them all.
 *
 * @param value - anything the app passed as a source.
 * @param registry - the tools whose methods it must have; default the six.
 */
export function missingSourceMethod(
  value: unknown,
  registry: KnowledgeToolRegistry = KNOWLEDGE_TOOLS,
): string | undefined {
  for (const method of methodsInOrder(registry)) {
    if (
      typeof value !== 'object' ||
      value === null ||
      typeof (value as Record<string, unknown>)[method] !== 'function'
    )
      return method;
  }
  return undefined;
}
