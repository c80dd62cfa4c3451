import type { KnowledgeIssue } from '../errors/codes.js';
import { guardInput, throwIfIssues } from '../shared/guard.js';
import { formatPath } from '../shared/values.js';
import { compileDocument } from '../catalog/compileDocument.js';
import { closeFenceFix } from '../parse/parseIssues.js';
import { isIdCharCode, scanText } from '../parse/scanText.js';
import type { KnowledgeDocument, KnowledgePart } from '../types.js';

const API = 'formatKnowledgeDocument';

interface Frame {
  readonly parts: readonly KnowledgePart[];
  readonly id: string | undefined;
  i: number;
}

/**
 * Write a document as anchored Markdown: the inverse of `parseKnowledgeDocument`. Each section becomes
 * an open anchor line, its parts separated by blank lines, and a close anchor line; the text ends with
 * a line ending. For a document in parsed form, `parseKnowledgeDocument` of the result deep-equals it.
 *
 * @param document - a `KnowledgeDocument`, parsed or built in code.
 * @returns anchored Markdown text.
 * @throws {KnowledgeError} what `defineKnowledgeCatalog` throws for an invalid document, and
 *   `INVALID_INPUT` rather than write text that would parse differently: a section ID outside
 *   `A-Z a-z 0-9 _ . : -`, or a string part that holds an anchor or near-miss line outside a code
 *   fence, or leaves a fence open.
 * @example
 * ```ts
 * formatKnowledgeDocument({ id: 'g', revision: 'r1', parts: ['Intro.', { id: 'a', parts: ['Body.'] }] });
 * // 'Intro.\n\n<!-- agent-section:a -->\nBody.\n<!-- /agent-section:a -->\n'
 * ```
 */
export function formatKnowledgeDocument(document: KnowledgeDocument): string {
  const issues: KnowledgeIssue[] = [];
  const compiled = guardInput(API, () =>
    compileDocument(document, { api: API, path: [], root: 'document' }, issues),
  );
  throwIfIssues(issues);
  const { id: documentId, parts } = compiled!.document;
  const out: string[] = [];
  const stack: Frame[] = [{ parts, id: undefined, i: 0 }];
  // The current part's path, built only when there is a problem to report (depth can be 100,000).
  const pathHere = (): (string | number)[] => stack.flatMap((f) => ['parts', f.i - 1]);
  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.i === frame.parts.length) {
      stack.pop();
      if (frame.id !== undefined)
        out.push(frame.parts.length > 0 ? '\n' : '', `<!-- /agent-section:${frame.id} -->`);
      continue;
    }
    const index = frame.i++;
    const part = frame.parts[index]!;
    if (index > 0) out.push('\n\n');
    if (typeof part === 'string') {
      checkString(part, pathHere, documentId, issues);
      out.push(part);
      continue;
    }
    checkId(part.id, pathHere, documentId, issues);
    out.push(`<!-- agent-section:${part.id} -->\n`);
    stack.push({ parts: part.parts, id: part.id, i: 0 });
  }
  throwIfIssues(issues);
  return out.length === 0 ? '' : `${out.join('')}\n`;
}

type PathOf = () => (string | number)[];

function checkId(id: string, pathHere: PathOf, documentId: string, issues: KnowledgeIssue[]): void {
  for (let i = 0; i < id.length; i++) {
    if (isIdCharCode(id.charCodeAt(i))) continue;
    const path = [...pathHere(), 'id'];
    issues.push({
      code: 'INVALID_INPUT',
      path,
      documentId,
      sectionId: id,
      message:
        `${API}: ${formatPath('document', path)}: section ID \`${id}\` contains \`${String.fromCodePoint(id.codePointAt(i)!)}\`, ` +
        'which a text anchor cannot hold. Text anchors allow only A-Z a-z 0-9 _ . : - ; rename the section.',
    });
    return;
  }
}

function checkString(
  text: string,
  pathHere: PathOf,
  documentId: string,
  issues: KnowledgeIssue[],
): void {
  let firstLine = 0;
  const scan = scanText(text, (_kind, _id, line) => {
    if (firstLine === 0) firstLine = line;
  });
  if (firstLine === 0 && scan.openFence === undefined && !scan.rawHtmlOpen) return;
  const path = pathHere();
  const where = `${API}: ${formatPath('document', path)}`;
  if (firstLine !== 0) {
    issues.push({
      code: 'INVALID_INPUT',
      path,
      documentId,
      message:
        `${where}: line ${firstLine} of this string part is an anchor or anchor-like line outside a code fence, so the ` +
        'text would parse differently. Make it a section, or show it inside a fenced code block.',
    });
  } else if (scan.openFence !== undefined) {
    issues.push({
      code: 'INVALID_INPUT',
      path,
      documentId,
      message:
        `${where}: this string part leaves the code fence opened at its line ${scan.openFence.line} open, which would swallow ` +
        `the anchors after it. ${closeFenceFix(scan.openFence.marker)}`,
    });
  } else {
    issues.push({
      code: 'INVALID_INPUT',
      path,
      documentId,
      message:
        `${where}: this string part leaves a raw HTML block open (one that starts with \`<pre>\`, \`<script>\`, ` +
        '`<style>`, `<textarea>`, `<!--`, `<?`, `<!X` or `<![CDATA[` and has no end), so what follows it, blank line ' +
        'or not, would be read inside it and parse differently. Close the HTML block in this part.',
    });
  }
}
