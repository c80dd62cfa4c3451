/**
 * Reads an options object once into plain data, so that a getter or Proxy that throws is a
 * `KnowledgeError` `INVALID_INPUT` naming the option, and one that changes its answer between reads
 * cannot pass a check and then hand over something else. Internal.
 *
 * @module
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { KnowledgeError } from '../errors/KnowledgeError.js';
import { isPlainObject } from './values.js';

function threw(api: string, path: readonly string[], error: unknown): KnowledgeError {
  const detail = error instanceof Error ? error.message : String(error);
  const issue: KnowledgeIssue = {
    code: 'INVALID_INPUT',
    path: [...path],
    message: `${api}: reading \`${path.join('.')}\` threw (${detail}). Pass plain data: objects, arrays, strings and functions, without getters or proxies that throw.`,
  };
  return new KnowledgeError([issue], { cause: error });
}

/**
 * `options` copied into a new plain object (its own enumerable string keys, each read once), or
 * `options` itself when it is not a plain object (the caller's check then refuses it).
 *
 * @param api - the function's name, which the message starts with.
 * @param options - what the caller passed.
 * @param path - where `options` sits, for the issue's `path` and message (default `['options']`).
 * @returns the copy, or `options` unchanged when it is not a plain object.
 * @throws {KnowledgeError} `INVALID_INPUT` naming the option when telling what `options` is, listing its
 *   keys or reading one of them throws, with the original as `cause`.
 */
export function snapshotOptions(
  api: string,
  options: unknown,
  path: readonly string[] = ['options'],
): unknown {
  let keys: string[];
  try {
    if (!isPlainObject(options)) return options;
    keys = Object.keys(options);
  } catch (error) {
    throw threw(api, path, error);
  }
  const entries: [string, unknown][] = [];
  for (const key of keys) {
    try {
      entries.push([key, (options as Record<string, unknown>)[key]]);
    } catch (error) {
      throw threw(api, [...path, key], error);
    }
  }
  // `fromEntries` defines each key as an own property, so `__proto__` stays an ordinary key.
  return Object.fromEntries(entries);
}
