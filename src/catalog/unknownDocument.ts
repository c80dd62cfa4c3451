import type { KnowledgeIssue } from '../errors/codes.js';
import { didYouMean, suggest } from '../shared/suggest.js';

/**
 * The `UNKNOWN_DOCUMENT` issue, with close matches among `ids`: one wording for every lookup
 * (`read`, `assertSelection`, `sectionIds`, `document`). `where` names the place in the message.
 */
export function unknownDocument(
  api: string,
  documentId: string,
  ids: Iterable<string>,
  path: readonly (string | number)[],
  where: string,
): KnowledgeIssue {
  const suggestions = suggest(documentId, ids);
  return {
    code: 'UNKNOWN_DOCUMENT',
    path,
    documentId,
    ...(suggestions.length > 0 ? { suggestions } : {}),
    message: `${api}: ${where}the catalog has no document \`${documentId}\`.${didYouMean(suggestions)} The catalog's documents are listed by \`catalog.ids\`.`,
  };
}
