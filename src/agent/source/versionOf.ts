/**
 * The version a plain source answers from: its one label (`current` unless its options name one),
 * the fields every output carries beside `activeContentRevision`, and the refusal of a call naming
 * another label.
 *
 * @module
 */
import type { KnowledgeVersionInfo } from '../types.js';
import { DEFAULT_VERSION_LABEL, versionLabelProblem } from '../versions/label.js';
import { versionNotFound } from '../versions/versionNotFound.js';
import type { CallScope } from './callScope.js';
import type { SourceState } from './state.js';

/** `version` and `publishedAt` of an output, from the call's state. */
export interface VersionFields {
  readonly version: string;
  readonly publishedAt: string;
}

/**
 * The output fields that name the answering version.
 *
 * @param state - the call's state.
 */
export function versionFields(state: SourceState): VersionFields {
  return { version: state.version, publishedAt: state.publishedAt };
}

/**
 * The root `list_tree`'s `versions` of a plain source: its one version, the default.
 *
 * @param state - the call's state.
 */
export function versionsOf(state: SourceState): KnowledgeVersionInfo[] {
  return [
    {
      version: state.version,
      default: true,
      activeContentRevision: state.table.activeContentRevision,
      publishedAt: state.publishedAt,
    },
  ];
}

/**
 * Refuse a call whose checked `version` is not the source's own label: `VERSION_NOT_FOUND`, listing
 * that label as the one version (never an answer from another version).
 *
 * @param scope - the call.
 * @param label - the source's label.
 * @param asked - the call's checked `version`, or `undefined` when it named none.
 * @throws {KnowledgeToolError} `VERSION_NOT_FOUND`.
 */
export function refuseOtherVersion(scope: CallScope, label: string, asked: unknown): void {
  if (asked === undefined || asked === label) return;
  const { message, details } = versionNotFound(scope.tool, String(asked), [
    { version: label, default: true },
  ]);
  throw scope.fail('VERSION_NOT_FOUND', message, details);
}

/**
 * What is wrong with a source's `version` option (an `OptionCheck`: the text after "must be"), or
 * `undefined` when it is a label.
 *
 * @param value - the option's value (not `undefined`).
 */
export function versionOptionProblem(value: unknown): string | undefined {
  const problem = versionLabelProblem(value);
  return problem === undefined
    ? undefined
    : `a version label (${problem}), such as "3.x": 1 to 64 characters of A–Z a–z 0–9 . _ -; leave it out for "${DEFAULT_VERSION_LABEL}"`;
}

/**
 * What is wrong with a source's `publishedAt` option (an `OptionCheck`), or `undefined` when it is a
 * `Date` or a string `Date` reads, either a valid time.
 *
 * @param value - the option's value (not `undefined`).
 */
export function publishedAtProblem(value: unknown): string | undefined {
  return isoTime(value) === undefined
    ? 'a valid Date or an ISO 8601 date string such as "2026-10-01T00:00:00.000Z"; leave it out for the time the source is created'
    : undefined;
}

/**
 * A `publishedAt` option as `Date#toISOString()` writes it, or `undefined` when it is no valid time.
 *
 * @param value - a `Date` or a date string.
 */
export function isoTime(value: unknown): string | undefined {
  const date =
    value instanceof Date ? value : typeof value === 'string' ? new Date(value) : undefined;
  return date === undefined || Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
