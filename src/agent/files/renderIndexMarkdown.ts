import type { FileTable } from '../internal/model.js';

/** `[`, `]` and `\` escaped, so a title stays the text of its link. */
function escapeLinkText(text: string): string {
  let out = '';
  for (const ch of text) out += ch === '[' || ch === ']' || ch === '\\' ? `\\${ch}` : ch;
  return out;
}

/**
 * The text of `index.md`: every page as `- [title](path) — description`, under a heading per
 * directory, in path order; link targets percent-encoded per path segment.
 */
export function renderIndexMarkdown(table: FileTable): string {
  const lines = ['# Index', '', 'Every page of this knowledge base, by directory. This index is for discovery: read a page before using it as evidence.'];
  let current: string | undefined;
  for (const page of table.pages) {
    const dir = page.path.slice(0, page.path.lastIndexOf('/'));
    if (dir !== current) {
      lines.push('', `## ${dir}`, '');
      current = dir;
    }
    const target = page.path.split('/').map(encodeURIComponent).join('/');
    lines.push(`- [${escapeLinkText(page.title)}](${target})${page.description === null ? '' : ` — ${page.description}`}`);
  }
  return `${lines.join('\n')}\n`;
}
