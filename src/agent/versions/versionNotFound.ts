/**
 * The one wording of `VERSION_NOT_FOUND`: a call named a version the knowledge base does not have.
 * Every source (a plain one, which has one version, and `createVersionedSource`) refuses with it, and
 * never answers from another version.
 *
 * @module
 */
import type { JsonValue } from '../types.js';

/** A version as the refusal lists it: its label and whether it is the default. */
export interface VersionListed {
  readonly version: string;
  readonly default: boolean;
}

/** The message and details of a `VERSION_NOT_FOUND` refusal. */
export interface VersionNotFound {
  readonly message: string;
  /** `{ version, versions }`: the label asked for and every label the knowledge base has. */
  readonly details: JsonValue;
}

/**
 * Word the refusal of a call to `tool` that named version `asked`, listing the versions there are.
 *
 * @param tool - the tool or call that was refused, such as `search_files`.
 * @param asked - the label the call named.
 * @param versions - the knowledge base's versions, the default among them.
 * @returns the message (naming the call, the label, the versions and the fix) and the details.
 * @example
 * ```ts
 * versionNotFound('search_files', '4.x', [{ version: '3.x', default: true }]).message;
 * // '`search_files`: this knowledge base has no version `4.x`. Its versions: `3.x` (default). Pass
 * //  one of them as `version`, or leave `version` out for the default.'
 * ```
 */
export function versionNotFound(
  tool: string,
  asked: string,
  versions: readonly VersionListed[],
): VersionNotFound {
  const listed = versions
    .map((entry) => `\`${entry.version}\`${entry.default ? ' (default)' : ''}`)
    .join(', ');
  return {
    message: `\`${tool}\`: this knowledge base has no version \`${asked}\`. Its versions: ${listed}. Pass one of them as \`version\`, or leave \`version\` out for the default.`,
    details: { version: asked, versions: versions.map((entry) => entry.version) },
  };
}
