/**
 * What one call of a tool reads of a stored revision, besides its page records: the tool says it
 * (`reads` of its definition) from the call's arguments, and a stored source (the static bundle, the
 * PostgreSQL store) reads that and no more. A plan is a promise of what the call touches, never a
 * check: a call that touches more throws `NotRead`, and the source answers it from the whole revision.
 *
 * @module
 */

/** What one call reads besides the revision's page records. An empty plan reads only the records. */
export interface ReadPlan {
  /**
   * The one file the call is about, by exactly one of its ID and path: its record (and, for a page,
   * its section sizes). A navigation file names what it is generated from (`index.md` the file list,
   * a graph file its page's relationships), which the source reads instead.
   */
  readonly file?: { readonly fileId: string | null; readonly path: string | null } | undefined;
  /** With `file`: its text (a page's document, a navigation file's generated text). */
  readonly text?: boolean | undefined;
  /** With `file`: that page's relationships and the records of the pages they name. */
  readonly related?: boolean | undefined;
  /** The pages a walk of the relationships reaches: `depth` levels from `seed`, `fanout` per page. */
  readonly walk?:
    { readonly seed: string; readonly depth: number; readonly fanout: number } | undefined;
  /** One window of a directory's children (the call's own arguments say which). */
  readonly listing?: true | undefined;
  /** The revision's search index: its terms' rows and the hits' records. */
  readonly search?: true | undefined;
  /** Every page's document and relationships: a tool that says nothing of what it reads. */
  readonly everything?: true | undefined;
}

/** The plan of a tool without `reads`: the whole revision. Frozen. */
export const READ_EVERYTHING: ReadPlan = Object.freeze({ everything: true });

/** A string argument, or `null` (a plan reads what a string names; the tool refuses anything else). */
export const planString = (value: unknown): string | null =>
  typeof value === 'string' ? value : null;

/** An integer argument in `min..max`, else its default (the tool refuses a bad one itself). */
export const planInteger = (value: unknown, min: number, max: number, fallback: number): number =>
  Number.isSafeInteger(value) && (value as number) >= min && (value as number) <= max
    ? (value as number)
    : fallback;
