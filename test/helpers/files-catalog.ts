import {
  defineKnowledgeCatalog,
  parseKnowledgeDocument,
  type KnowledgeCatalog,
} from '../../src/index.js';

/** A catalog of `{ id: text }` documents (revision `r1`, optional locale per ID). */
export function catalogOf(
  texts: Readonly<Record<string, string>>,
  locales: Readonly<Record<string, string>> = {},
): KnowledgeCatalog {
  return defineKnowledgeCatalog(
    Object.entries(texts).map(([id, text]) =>
      parseKnowledgeDocument({ id, revision: `r-${id}`, text, locale: locales[id] }),
    ),
  );
}
