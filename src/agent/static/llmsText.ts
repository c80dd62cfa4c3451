/**
 * `llms.txt` and `llms-full.txt` of a bundle, in the llmstxt.org format: an H1, a `>` summary, a
 * paragraph, then H2 sections of `- [name](url): notes` (the `Optional` section last, which a reader
 * short of context may skip).
 */
import { compareCodePoints } from '../../shared/codePoints.js';
import { BUNDLE_PATHS, bundleUrlPath, type BundlePage } from './bundleFormat.js';
import type { ActiveContentRevision } from '../types.js';

/** What both files say about the bundle. */
export interface LlmsTextInput {
  readonly title: string;
  readonly revision: ActiveContentRevision;
  readonly pages: readonly BundlePage[];
  /** Page texts by file ID (for `llms-full.txt`). */
  readonly texts: ReadonlyMap<string, string>;
  /** Absolute URL of the bundle's root (links are relative without it). */
  readonly baseUrl: string | undefined;
}

/** One line of text: whitespace runs (line breaks too) as one space. */
const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();
/** Link text: brackets escaped. */
const label = (text: string): string => oneLine(text).replace(/[[\]\\]/g, (c) => `\\${c}`);

function urlOf(input: LlmsTextInput, path: string): string {
  const rel = bundleUrlPath(path);
  return input.baseUrl === undefined ? rel : `${input.baseUrl.replace(/\/+$/, '')}/${rel}`;
}

function summary(input: LlmsTextInput): string {
  const n = input.pages.length;
  return `> ${oneLine(input.title)}: ${n} ${n === 1 ? 'page' : 'pages'} of Markdown (revision ${JSON.stringify(input.revision)}). The pages under \`pages/\` are the evidence to answer from; \`index.md\`, \`_index/**\` and \`_graph/**\` are for finding and navigating, not evidence.`;
}

/**
 * `llms.txt`: the pages grouped by directory, each linked with its description, and the bundle's
 * navigation files under `Optional`.
 *
 * @param input - the bundle's title, revision and pages.
 * @returns the text.
 */
export function llmsText(input: LlmsTextInput): string {
  const lines = [
    `# ${oneLine(input.title)}`,
    '',
    summary(input),
    '',
    `Read this file first, then [${BUNDLE_PATHS.files}](${urlOf(input, BUNDLE_PATHS.files)}) (every page with its sections and their sizes, so a page can be read by section) or [index.md](${urlOf(input, BUNDLE_PATHS.index)}). Read a page's Markdown before citing it.`,
  ];
  const groups = new Map<string, BundlePage[]>();
  for (const page of input.pages) {
    const dir = page.path.slice(0, page.path.lastIndexOf('/'));
    let list = groups.get(dir);
    if (list === undefined) groups.set(dir, (list = []));
    list.push(page);
  }
  for (const dir of [...groups.keys()].sort(compareCodePoints)) {
    lines.push('', `## ${dir}`, '');
    for (const page of groups.get(dir)!) {
      const notes = page.description === null ? '' : `: ${oneLine(page.description)}`;
      lines.push(`- [${label(page.title)}](${urlOf(input, page.path)})${notes}`);
    }
  }
  lines.push(
    '',
    '## Optional',
    '',
    `- [llms-full.txt](${urlOf(input, BUNDLE_PATHS.llmsFull)}): every page's text in one file`,
    `- [${BUNDLE_PATHS.graph}](${urlOf(input, BUNDLE_PATHS.graph)}): how the pages relate (links and shared tags); each page's list is its \`graphPath\``,
    `- [${BUNDLE_PATHS.search}](${urlOf(input, BUNDLE_PATHS.search)}): the sharded search index, for programs (\`createStaticSource\`)`,
    `- [${BUNDLE_PATHS.manifest}](${urlOf(input, BUNDLE_PATHS.manifest)}): the bundle's format, revision and counts`,
  );
  return `${lines.join('\n')}\n`;
}

/**
 * `llms-full.txt`: the summary, then every page's text under an H2 with its title and path.
 *
 * @param input - the bundle's title, revision, pages and texts.
 * @returns the text.
 */
export function llmsFullText(input: LlmsTextInput): string {
  const parts = [`# ${oneLine(input.title)}`, '', summary(input)];
  for (const page of input.pages) {
    parts.push(
      '',
      `## ${oneLine(page.title)}`,
      '',
      `Source: ${urlOf(input, page.path)}`,
      '',
      input.texts.get(page.fileId) ?? '',
    );
  }
  return `${parts.join('\n')}\n`;
}
