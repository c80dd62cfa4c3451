/**
 * Anchored Markdown built from a structure the tests also read, so that section counts, the outline's
 * tree and its IDs are known without asking the code under test.
 */
import { basename, join } from 'node:path';
import { writeTree, type Tree } from './tree.js';

/** A part of a document: Markdown text, or a section holding more parts. */
export type Part = string | Section;

/** A section written with open and close anchors around its parts. */
export interface Section {
  readonly id: string;
  readonly parts: readonly Part[];
}

/** A section with `id` around `parts`. */
export function section(id: string, ...parts: Part[]): Section {
  return { id, parts };
}

/** One Markdown file: its path in the folder, the lines of its front matter block (if any), its parts. */
export interface KnowledgeFile {
  readonly path: string;
  readonly frontMatter?: readonly string[];
  readonly parts: readonly Part[];
}

/** The parts as Markdown: each anchor on its own line. */
export function renderParts(parts: readonly Part[]): string {
  return parts
    .map((part) =>
      typeof part === 'string'
        ? part
        : [
            `<!-- agent-section:${part.id} -->`,
            renderParts(part.parts),
            `<!-- /agent-section:${part.id} -->`,
          ].join('\n'),
    )
    .join('\n');
}

/** The whole file: `---`, the front matter lines, `---`, then the parts, ending with a line break. */
export function renderFile(file: KnowledgeFile): string {
  const front =
    file.frontMatter === undefined ? '' : ['---', ...file.frontMatter, '---', ''].join('\n');
  return `${front}${renderParts(file.parts)}\n`;
}

/** A tree of files for `writeTree`. */
export function treeOf(files: readonly KnowledgeFile[]): Tree {
  return Object.fromEntries(files.map((file) => [file.path, renderFile(file)]));
}

/** The sections of `parts` in document order, each with its depth (1 for a top-level section). */
export function sectionsInOrder(
  parts: readonly Part[],
  depth = 1,
): { readonly id: string; readonly depth: number; readonly section: Section }[] {
  return parts.flatMap((part) =>
    typeof part === 'string'
      ? []
      : [{ id: part.id, depth, section: part }, ...sectionsInOrder(part.parts, depth + 1)],
  );
}

/** The document ID the loader gives a file: front matter `id:`, else the path without `.md`. */
export function documentIdOf(file: KnowledgeFile): string {
  const line = file.frontMatter?.find((l) => l.startsWith('id: '));
  return line === undefined ? file.path.slice(0, -'.md'.length) : line.slice('id: '.length);
}

/** The folder's name, which `serve`, `mcp` and `search` use as the knowledge base ID by default. */
export function folderName(dir: string): string {
  return basename(dir);
}

/** A clean knowledge folder: nested sections, front matter, a file in a subfolder, a fenced anchor example, code points outside the BMP. */
export const HANDBOOK: readonly KnowledgeFile[] = [
  {
    path: 'guide.md',
    frontMatter: [
      'id: guide',
      'title: Returns guide',
      'locale: en',
      'description: How returns and delivery work.',
      'tags: [returns, delivery]',
    ],
    parts: [
      '# Returns guide',
      '',
      section(
        'returns',
        '## Returns',
        'Customers may return an item within 30 days of delivery.',
        '',
        section(
          'return-window',
          '### The return window',
          'The return window opens on the day of delivery and lasts thirty days.',
        ),
        section(
          'refund-method',
          '### Refund method',
          'Refunds go back to the original payment card.',
        ),
      ),
      '',
      section('delivery', '## Delivery', 'Parcels 📦 arrive in three to five working days.'),
      '',
      'To show an anchor in a page, fence it:',
      '',
      '```markdown',
      '<!-- agent-section:example -->',
      '```',
    ],
  },
  {
    path: 'notes.md',
    frontMatter: ['title: Notes'],
    parts: ['# Notes', '', 'Plain notes without sections: the warehouse closes at six.'],
  },
  {
    path: 'topics/billing.md',
    parts: [
      '# Billing',
      '',
      section('invoices', '## Invoices', 'Invoices are sent monthly by email.'),
      section('payment', '## Payment', 'Pay by card or bank transfer. 付款方式：银行卡。'),
    ],
  },
];

/** Sections written in `files`. */
export function sectionCount(files: readonly KnowledgeFile[]): number {
  return files.reduce((n, file) => n + sectionsInOrder(file.parts).length, 0);
}

/** `check`'s summary line: `N files, M sections, K problems` (singular for one). */
export function summaryLine(files: number, sections: number, problems: number): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(files, 'file')}, ${plural(sections, 'section')}, ${plural(problems, 'problem')}`;
}

/** A fresh copy of the handbook in `<root>/handbook`, for the commands that serve a folder. */
export async function writeHandbook(root: string): Promise<string> {
  const dir = join(root, 'handbook');
  await writeTree(dir, treeOf(HANDBOOK));
  return dir;
}
