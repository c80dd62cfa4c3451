import type { LexicalFile } from './lexicalSearch.js';
import type { SemanticFile } from './semantic.js';

/** A page on its way to a `SearchHit`: its score and what found it. */
export interface Candidate {
  readonly page: number;
  score: number;
  readonly lexical: LexicalFile | undefined;
  semantic: SemanticFile | undefined;
  /** Reached by graph expansion (from another candidate). */
  graph: boolean;
}
