/**
 * A deep copy of a JSON value (objects, arrays, strings, numbers, booleans, null), unfrozen: what a
 * caller owns. Several times faster than `structuredClone` for the small objects tools return, and
 * iterative, so depth costs no stack.
 */
export function cloneJson<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? new Array<unknown>(value.length) : {};
  const stack: [unknown, Record<string | number, unknown>][] = [
    [value, root as Record<string, unknown>],
  ];
  while (stack.length > 0) {
    const [from, to] = stack.pop()!;
    if (Array.isArray(from)) {
      for (let i = 0; i < from.length; i++) to[i] = copyOne(from[i], stack);
    } else {
      for (const key of Object.keys(from as object)) {
        const v = copyOne((from as Record<string, unknown>)[key], stack);
        // `__proto__` is an ordinary key in JSON: define it, never assign it.
        if (key === '__proto__')
          Object.defineProperty(to, key, {
            value: v,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else to[key] = v;
      }
    }
  }
  return root as T;
}

function copyOne(v: unknown, stack: [unknown, Record<string | number, unknown>][]): unknown {
  if (typeof v !== 'object' || v === null) return v;
  const copy = Array.isArray(v) ? new Array<unknown>(v.length) : {};
  stack.push([v, copy as Record<string, unknown>]);
  return copy;
}
