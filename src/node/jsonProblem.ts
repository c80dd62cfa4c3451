/** What in a front matter value JSON cannot hold, with a bound on values so aliases cannot multiply without end. */

/** How many values a front matter block may hold: aliases count each time they are used. */
export const MAX_VALUES = 10_000;

/** The values counted so far in one front matter block, shared by the checks of all its keys. */
export interface ValueBudget {
  values: number;
}

/**
 * A phrase saying what in `value` JSON cannot hold, or `undefined` (explicit stack: depth is input).
 * Its values are counted into `budget`, which one block's keys share: the key that takes the block
 * past `MAX_VALUES` is refused, whichever key holds the aliases.
 */
export function jsonProblem(value: unknown, budget: ValueBudget): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (++budget.values > MAX_VALUES)
      return `brings the block to more than ${MAX_VALUES} values, with the keys before it (an alias counts each time it is used)`;
    if (depth > 64) return 'nests more than 64 levels deep';
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (Number.isFinite(item)) continue;
      return `has the number ${String(item)}, which JSON cannot hold`;
    }
    if (
      Array.isArray(item) ||
      (typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype)
    ) {
      for (const child of Object.values(item as object))
        stack.push({ value: child, depth: depth + 1 });
      continue;
    }
    return `has a value JSON cannot hold (${Object.prototype.toString.call(item)})`;
  }
  return undefined;
}
