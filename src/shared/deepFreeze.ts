/**
 * Deep-freezing of the JSON values the tool layer hands out (schemas, definitions).
 *
 * @module
 */

/**
 * Freeze `value` and every object and array inside it, with an explicit stack (no recursion), and
 * return it. Already-frozen nodes are skipped, so shared subschemas are visited once.
 *
 * @param value - a JSON value built by this library.
 * @returns `value`, deeply frozen.
 */
export function deepFreeze<T>(value: T): T {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (typeof node !== 'object' || node === null || Object.isFrozen(node)) continue;
    Object.freeze(node);
    for (const child of Object.values(node)) stack.push(child);
  }
  return value;
}

/** A fresh, mutable deep copy of a JSON value, for callers (SDKs) that may normalize schemas in place. */
export { cloneJson } from './cloneJson.js';
