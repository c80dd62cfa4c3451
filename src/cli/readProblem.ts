/**
 * A refused `catalog.read` in the command line's words: the flags and files a user typed, not the
 * library's request fields (`request.maxChars`, `catalog.ids`). The library's message stays the API's.
 */
import type { KnowledgeError } from '../errors/KnowledgeError.js';

/** `a`, `b` or `c` in backticks. */
function choices(ids: readonly string[]): string {
  const quoted = ids.map((id) => `\`${id}\``);
  return quoted.length < 2
    ? (quoted[0] ?? '')
    : `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}`;
}

/**
 * The line `knowledge-kit <command>` prints for a refused read of `dir`: what was wrong, in terms of
 * the command's arguments and flags, and the fix.
 *
 * @param command - `read`, or another command that reads a document.
 * @param dir - the folder as the user typed it.
 * @param error - what `catalog.read` threw.
 */
export function readProblem(command: string, dir: string, error: KnowledgeError): string {
  const issue = error.issues[0]!;
  const outline = `\`knowledge-kit outline ${dir}\` lists every document and its sections`;
  const close =
    issue.suggestions !== undefined && issue.suggestions.length > 0
      ? ` Did you mean ${choices(issue.suggestions)}?`
      : '';
  let text: string;
  switch (issue.code) {
    case 'UNKNOWN_DOCUMENT':
      text = `\`${dir}\` has no document \`${issue.documentId ?? ''}\`.${close} A document's ID is its file's path in the folder without \`.md\` (\`guide/setup.md\` is \`guide/setup\`), unless its front matter sets \`id\`; ${outline}.`;
      break;
    case 'UNKNOWN_SECTION': {
      const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more unknown)` : '';
      text = `document \`${issue.documentId ?? ''}\` has no section \`${issue.sectionId ?? ''}\`${more}.${close} Fix the ID after --self or --subtree; ${outline}.`;
      break;
    }
    case 'MAX_CHARS_EXCEEDED':
      text = `the read is ${issue.actual ?? '?'} characters (Unicode code points), over --max-chars ${issue.limit ?? '?'}. Nothing was cut: raise --max-chars, or read less with --self or --subtree and section IDs (${outline}, with sizes).`;
      break;
    default:
      text = error.message;
  }
  return `knowledge-kit ${command}: ${issue.code}: ${text}`;
}
