/** Small helpers for reading untrusted input values. Internal. */

/** A plain object: its prototype is `Object.prototype` or `null`. Arrays, class instances, boxed values are not. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/** Own keys of a plain object that are not in `allowed` (symbols included, shown as strings). */
export function unknownKeys(value: object, allowed: readonly string[]): readonly string[] {
  let extra: string[] | undefined; // allocated only when there is one: this runs for every section
  for (const key of Reflect.ownKeys(value)) {
    if (typeof key !== 'string' || !allowed.includes(key)) (extra ??= []).push(String(key));
  }
  return extra ?? NO_KEYS;
}

/** A non-empty string. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/** A short, safe description of a value for messages: its type, and a short preview. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return value.length === 0 ? 'an empty string' : `the string ${quote(value)}`;
    case 'number':
    case 'bigint':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'undefined':
      return 'undefined';
    case 'object': {
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto === Object.prototype || proto === null) return 'an object';
      let name: unknown;
      try {
        name = (value as { constructor?: { name?: unknown } }).constructor?.name;
      } catch {
        name = undefined; // a throwing getter: describe the value without its class name
      }
      return typeof name === 'string' && name !== ''
        ? `an instance of ${name}`
        : 'a non-plain object';
    }
    default:
      return `a ${typeof value}`;
  }
}

/** Backtick-quote a value for a message, shortened past 60 characters. */
export function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `\`${short}\``;
}

/** `documents[2].parts[0].id` style rendering of a path. */
export function formatPath(root: string, path: readonly (string | number)[]): string {
  let out = root;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${key}`;
  return out;
}

/** A non-negative safe integer, the only valid `maxChars`. */
export function isCharLimit(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** Read `value[key]` where an own property `key` exists; `undefined` counts as absent. */
export function own(value: object, key: string): unknown {
  return Object.prototype.hasOwnProperty.call(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/**
 * Whether `value` has the shape of a catalog from `defineKnowledgeCatalog` (`read`, `document`, `ids`),
 * for the option checks of the functions that take one.
 *
 * @param value - what the caller passed as a catalog.
 */
export function isCatalogLike(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const c = value as Record<string, unknown>;
  return (
    typeof c['read'] === 'function' &&
    typeof c['document'] === 'function' &&
    Array.isArray(c['ids'])
  );
}
