/**
 * The text of `index.md`: every page as a Markdown link with its description, under a heading per
 * directory. A discovery aid, never evidence.
 */
import type { FileTable, PageRecord } from '../model.js';
import { collapseWhitespace } from './summarize.js';

/** `[`, `]` and `\` escaped, whitespace collapsed, so a title stays the one-line text of its link. */
function escapeLinkText(text: string): string {
  let out = '';
  for (const ch of collapseWhitespace(text))
    out += ch === '[' || ch === ']' || ch === '\\' ? `\\${ch}` : ch;
  return out;
}

/**
 * The text of `index.md`: a `# Index` title, a sentence saying what it is, then for each directory
 * holding pages a `## <directory>` heading and one line per page, `- [title](path) — description`
 * (without ` — description` when there is none). Pages are in path order, grouped: a directory's
 * heading comes once, where its first page falls in path order (so `pages/a/x.md` puts `## pages/a`
 * before `## pages` when it precedes `pages/b.md`). Link
 * targets are percent-encoded per path segment, so they resolve from the root where `index.md` lives.
 * A page served from an earlier version says so; files that cannot be read are listed last, under
 * `## Not available`, each with its problem.
 *
 * @param table - the file table.
 * @returns Markdown ending in a line feed.
 * @example
 * ```ts
 * renderIndexMarkdown(table);
 * // '# Index\n\nEvery page …\n\n## pages\n\n- [FAQ](pages/faq.md) — Answers to common questions.\n'
 * ```
 */
export function renderIndexMarkdown(table: FileTable): string {
  const byDirectory = new Map<string, PageRecord[]>();
  for (const page of table.pages) {
    const dir = page.path.slice(0, page.path.lastIndexOf('/'));
    (byDirectory.get(dir) ?? byDirectory.set(dir, []).get(dir)!).push(page);
  }
  const lines = [
    '# Index',
    '',
    'Every page of this knowledge base, by directory. This index is for discovery: read a page before using it as evidence.',
  ];
  for (const dir of byDirectory.keys()) {
    lines.push('', `## ${dir}`, '');
    for (const page of byDirectory.get(dir)!) {
      const target = page.path.split('/').map(encodeLinkSegment).join('/');
      const description =
        page.description === null ? '' : ` — ${collapseWhitespace(page.description)}`;
      const earlier =
        page.status === 'previous_available'
          ? ' (an earlier version: the newest has problems)'
          : '';
      lines.push(`- [${escapeLinkText(page.title)}](${target})${description}${earlier}`);
    }
  }
  // Files that are listed but cannot be read (a folder with broken files): said once, at the end.
  const unavailable = table.files.filter((f) => f.kind === 'unavailable');
  if (unavailable.length > 0) {
    lines.push(
      '',
      '## Not available',
      '',
      'These files have problems and cannot be read until their authors fix them:',
      '',
    );
    for (const file of unavailable)
      lines.push(`- \`${file.path}\` — ${collapseWhitespace(file.problem)}`);
  }
  return `${lines.join('\n')}\n`;
}

/** A path segment percent-encoded for a Markdown link target: `encodeURIComponent`, and `( ) ! ' *`, so a `)` cannot end the link. */
function encodeLinkSegment(segment: string): string {
  return encodeURIComponent(segment).replace(
    /[()!'*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}
