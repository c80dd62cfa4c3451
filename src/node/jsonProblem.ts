/** What in a front matter value JSON cannot hold, with a bound on values so aliases cannot multiply without end. */

/** How many values a front matter block may hold: aliases count each time they are used. */
const MAX_VALUES = 10_000;

/** A phrase saying what in `value` JSON cannot hold, or `undefined` (explicit stack: depth is input). */
export function jsonProblem(value: unknown): string | undefined {
  const stack: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  let seen = 0;
  while (stack.length > 0) {
    const { value: item, depth } = stack.pop()!;
    if (++seen > MAX_VALUES) return `holds more than ${MAX_VALUES} values (an alias counts each time it is used)`;
    if (depth > 64) return 'nests more than 64 levels deep';
    if (item === null || typeof item === 'string' || typeof item === 'boolean') continue;
    if (typeof item === 'number') {
      if (Number.isFinite(item)) continue;
      return `has the number ${String(item)}, which JSON cannot hold`;
    }
    if (Array.isArray(item) || (typeof item === 'object' && Object.getPrototypeOf(item) === Object.prototype)) {
      for (const child of Object.values(item as object)) stack.push({ value: child, depth: depth + 1 });
      continue;
    }
    return `has a value JSON cannot hold (${Object.prototype.toString.call(item)})`;
  }
  return undefined;
}
