/** Every object and array reachable from a value through own enumerable keys, each visited once. */
export function reachableObjects(root: unknown): object[] {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value !== 'object' || value === null || seen.has(value)) continue;
    seen.add(value);
    for (const key of Object.keys(value)) stack.push((value as Record<string, unknown>)[key]);
  }
  return [...seen];
}
