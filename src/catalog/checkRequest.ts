/**
 * Checks a read request against a compiled catalog: the shared core of `assertSelection` and `read`.
 * Costs what the request names (its keys and section IDs), never the size of the document. Internal.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { throwIfIssues } from '../shared/guard.js';
import { didYouMean, suggest } from '../shared/suggest.js';
import { describe, formatPath, isCharLimit, isPlainObject, own } from '../shared/values.js';
import type { KnowledgeSelectionMode } from '../types.js';
import { type CompiledDocument, type CompiledSection, findSection } from './compileDocument.js';
import { extraKeys } from './extraKeys.js';
import { unknownDocument } from './unknownDocument.js';

const REQUEST_KEYS = ['documentId', 'selection', 'maxChars'] as const;
const SELECTION_KEYS = ['mode', 'sectionIds'] as const;
const MODES: readonly string[] = ['document', 'self', 'subtree'];
/**
 * Unknown section IDs of one request that get suggestions: each suggestion reads every section ID of
 * the document, so suggesting for all of them would cost the request's IDs times the document's.
 */
export const MAX_SUGGESTED_SECTIONS = 3;

/** A request that passed every check. */
export interface CheckedRequest {
  readonly documentId: string;
  readonly doc: CompiledDocument;
  readonly mode: KnowledgeSelectionMode;
  /** The selected sections, in request order; empty in `document` mode. */
  readonly sections: readonly CompiledSection[];
  readonly sectionIds: readonly string[];
  /** The request's own `maxChars`, if it gave one. */
  readonly maxChars: number | undefined;
}

/** Check `request`; throws one `KnowledgeError` with every problem. `api` names the caller in messages. */
export function checkRequest(
  api: string,
  request: unknown,
  documents: ReadonlyMap<string, CompiledDocument>,
): CheckedRequest {
  const issues: KnowledgeIssue[] = [];
  const bad = (path: (string | number)[], what: string): void => {
    issues.push({
      code: 'INVALID_SELECTION',
      path,
      message: `${api}: ${formatPath('request', path)}: ${what}`,
    });
  };
  if (!isPlainObject(request)) {
    bad([], `expected { documentId, selection, maxChars? }, got ${describe(request)}.`);
    throwIfIssues(issues);
  }
  const req = request as Record<string, unknown>;
  for (const key of extraKeys(req, REQUEST_KEYS))
    bad([key], `unknown key \`${key}\`. A request is { documentId, selection, maxChars? }.`);

  const documentId = own(req, 'documentId');
  let doc: CompiledDocument | undefined;
  if (typeof documentId !== 'string' || documentId === '') {
    bad(['documentId'], `\`documentId\` must be a non-empty string, got ${describe(documentId)}.`);
  } else {
    doc = documents.get(documentId);
    if (doc === undefined)
      issues.push(
        unknownDocument(api, documentId, documents.keys(), ['documentId'], 'request.documentId: '),
      );
  }

  const selection = own(req, 'selection');
  let mode: KnowledgeSelectionMode | undefined;
  const sections: CompiledSection[] = [];
  const sectionIds: string[] = [];
  if (!isPlainObject(selection)) {
    bad(
      ['selection'],
      `\`selection\` must be { mode: 'document' } or { mode: 'self' | 'subtree', sectionIds: [...] }, got ${describe(selection)}.`,
    );
  } else {
    for (const key of extraKeys(selection, SELECTION_KEYS))
      bad(['selection', key], `unknown key \`${key}\`. A selection is { mode, sectionIds? }.`);
    const rawMode = own(selection, 'mode');
    const ids = own(selection, 'sectionIds');
    if (typeof rawMode !== 'string' || !MODES.includes(rawMode)) {
      bad(
        ['selection', 'mode'],
        `\`mode\` must be 'document', 'self' or 'subtree', got ${describe(rawMode)}.`,
      );
    } else {
      mode = rawMode as KnowledgeSelectionMode;
    }
    if (mode === 'document' && ids !== undefined) {
      bad(
        ['selection', 'sectionIds'],
        "`sectionIds` is not allowed in 'document' mode, which reads the whole document. Remove it, or use mode 'self' or 'subtree'.",
      );
    } else if (mode !== undefined && mode !== 'document') {
      if (!Array.isArray(ids) || ids.length === 0) {
        bad(
          ['selection', 'sectionIds'],
          `'${mode}' mode needs \`sectionIds\`: a non-empty array of section IDs, got ${describe(ids)}.`,
        );
      } else {
        const seen = new Set<string>();
        let unknown = 0;
        for (let i = 0; i < ids.length; i++) {
          const sectionId: unknown = ids[i];
          const path = ['selection', 'sectionIds', i];
          if (typeof sectionId !== 'string' || sectionId === '') {
            bad(path, `a section ID must be a non-empty string, got ${describe(sectionId)}.`);
            continue;
          }
          if (seen.has(sectionId)) {
            issues.push({
              code: 'DUPLICATE_SELECTION',
              path,
              ...(typeof documentId === 'string' ? { documentId } : {}),
              sectionId,
              message: `${api}: ${formatPath('request', path)}: section \`${sectionId}\` is selected twice. Select each section once; order is yours to choose.`,
            });
            continue;
          }
          seen.add(sectionId);
          sectionIds.push(sectionId);
          if (doc === undefined) continue;
          const section = findSection(doc, sectionId);
          if (section !== undefined) {
            sections.push(section);
            continue;
          }
          const suggestions =
            unknown++ < MAX_SUGGESTED_SECTIONS ? suggest(sectionId, doc.sectionIds) : [];
          issues.push({
            code: 'UNKNOWN_SECTION',
            path,
            documentId: doc.document.id,
            sectionId,
            ...(suggestions.length > 0 ? { suggestions } : {}),
            message:
              `${api}: ${formatPath('request', path)}: document \`${doc.document.id}\` has no section \`${sectionId}\`.${didYouMean(suggestions)} ` +
              `Its sections are listed by \`catalog.sectionIds('${doc.document.id}')\`.`,
          });
        }
      }
    }
  }

  const maxChars = own(req, 'maxChars');
  if (maxChars !== undefined && !isCharLimit(maxChars)) {
    bad(
      ['maxChars'],
      `\`maxChars\` must be a non-negative safe integer (a limit in Unicode code points), got ${describe(maxChars)}.`,
    );
  }
  throwIfIssues(issues);
  return {
    documentId: documentId as string,
    doc: doc!,
    mode: mode!,
    sections,
    sectionIds,
    maxChars: maxChars as number | undefined,
  };
}
