/**
 * `versions.json`: the top of a static export with versions (`knowledge-kit export --version …`). It
 * names each version, its revision and the default; each version's bundle is under
 * `versions/<label>/`, exactly the bundle a plain export of that version writes. One definition for
 * the writer (the command line) and the reader (`createStaticSource`).
 */
import type { ActiveContentRevision } from '../types.js';
import { versionLabelProblem } from '../versions/label.js';
import { bundleJson } from './bundleFormat.js';
import { isPlainObject } from '../../shared/values.js';

/** `versions.json`'s `format`. */
export const VERSIONS_FORMAT = 'knowledge-kit-versions';
/** Version of `versions.json`'s format; a reader refuses another. */
export const VERSIONS_FORMAT_VERSION = 1;
/** Where `versions.json` is, relative to the export's root. */
export const VERSIONS_PATH = 'versions.json';

/** One version of `versions.json`. */
export interface BundleVersionEntry {
  /** The version's label; its bundle is `versions/<label>/`. */
  readonly version: string;
  /** The revision its bundle was exported at (its `manifest.json`'s). */
  readonly activeContentRevision: ActiveContentRevision;
  /** When it was published, when its manifest records it (ISO 8601). */
  readonly publishedAt?: string;
}

/** `versions.json`: the versions of a static export, in listing order, and the default. */
export interface BundleVersions {
  /** Always `'knowledge-kit-versions'`. */
  readonly format: typeof VERSIONS_FORMAT;
  /** The version of this file's format. */
  readonly version: typeof VERSIONS_FORMAT_VERSION;
  /** The label a call that names no version reads. */
  readonly default: string;
  /** Every version, in the order they were given. */
  readonly versions: readonly BundleVersionEntry[];
}

/**
 * The folder of a version's bundle, relative to the export's root: `versions/<label>/`.
 *
 * @param label - a valid label (not `.` or `..`).
 * @returns the folder path, ending with `/`.
 */
export function versionBundleDir(label: string): string {
  return `versions/${label}/`;
}

/**
 * `versions.json`'s text: sorted keys, a line ending, versions in the order given.
 *
 * @param versions - the versions, in order.
 * @param defaultVersion - one of their labels.
 * @returns the file's text.
 */
export function versionsFileText(
  versions: readonly BundleVersionEntry[],
  defaultVersion: string,
): string {
  const file: BundleVersions = {
    format: VERSIONS_FORMAT,
    version: VERSIONS_FORMAT_VERSION,
    default: defaultVersion,
    versions: versions.map((v) => ({
      version: v.version,
      activeContentRevision: v.activeContentRevision,
      ...(v.publishedAt === undefined ? {} : { publishedAt: v.publishedAt }),
    })),
  };
  return bundleJson(file);
}

/** Why a label cannot name a version folder, or `undefined`. */
function folderLabelProblem(label: unknown): string | undefined {
  if (label === '.' || label === '..') return 'a version label is not `.` or `..`';
  return versionLabelProblem(label);
}

/**
 * `versions.json` parsed and checked, or why it is not one this version of knowledge-kit reads.
 *
 * @param text - the file's text.
 * @returns `{ versions }`, or `{ problem }` (a phrase that ends a sentence naming the file).
 */
export function parseVersionsFile(
  text: string,
): { readonly versions: BundleVersions } | { readonly problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: 'is not JSON' };
  }
  if (!isPlainObject(value)) return { problem: 'is not a JSON object' };
  if (value['format'] !== VERSIONS_FORMAT || value['version'] !== VERSIONS_FORMAT_VERSION)
    return {
      problem: `is not a ${VERSIONS_FORMAT} file of version ${VERSIONS_FORMAT_VERSION} (it says ${JSON.stringify(value['format'])} version ${JSON.stringify(value['version'])})`,
    };
  const list = value['versions'];
  if (!Array.isArray(list) || list.length === 0)
    return { problem: 'lists no versions (`versions` is not a non-empty list)' };
  const seen = new Set<string>();
  for (const entry of list as unknown[]) {
    if (!isPlainObject(entry)) return { problem: 'holds a version that is not an object' };
    const label = entry['version'];
    const problem = folderLabelProblem(label);
    if (problem !== undefined)
      return { problem: `names the version ${JSON.stringify(label)}: ${problem}` };
    if (seen.has(label as string))
      return { problem: `names the version ${JSON.stringify(label)} twice` };
    seen.add(label as string);
  }
  if (typeof value['default'] !== 'string' || !seen.has(value['default']))
    return {
      problem: `names the default ${JSON.stringify(value['default'])}, which is not one of its versions`,
    };
  return { versions: value as unknown as BundleVersions };
}
