/**
 * Validates one input document and, in the same iterative pass, copies it into frozen nodes and
 * builds what makes a read cost what it returns: every non-empty string part in pre-order (`texts`),
 * each section's range in it, and, for a section with child sections only, its own strings (a leaf's
 * own strings are its range). Internal.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { describe, formatPath, isNonEmptyString, isPlainObject, own } from '../shared/values.js';
import type { KnowledgeDocument, KnowledgePart, KnowledgeSection } from '../types.js';
import { extraKeys } from './extraKeys.js';

/** A compiled section: its frozen node and where its text is. */
export interface CompiledSection {
  readonly node: KnowledgeSection;
  /** Its subtree's non-empty string parts are `texts[start, end)`. */
  readonly start: number;
  readonly end: number;
  /**
   * Its own non-empty string parts, children excluded, when it has child sections; `undefined` for a
   * leaf, whose own strings are `texts[start, end)`.
   */
  readonly own: readonly string[] | undefined;
}

/** A compiled document, ready for reads that cost what they return. */
export interface CompiledDocument {
  readonly document: KnowledgeDocument;
  /** Every non-empty string part, in source order. */
  readonly texts: readonly string[];
  /**
   * Its sections, found with `findSection`: beside `sectionIds` (the same order) when there are at
   * most `MAX_LISTED` of them, where a search of a few IDs costs less than a `Map` costs the compile;
   * a `Map` by ID beyond that.
   */
  readonly sections: readonly CompiledSection[] | ReadonlyMap<string, CompiledSection>;
  readonly sectionIds: readonly string[];
}

/** The most sections a document keeps in a list rather than a `Map`: a lookup reads at most this many IDs. */
const MAX_LISTED = 8;

/** The section `id` of `doc`, if it has one. O(1): a `Map` lookup, or a search of at most `MAX_LISTED` IDs. */
export function findSection(doc: CompiledDocument, id: string): CompiledSection | undefined {
  const { sections } = doc;
  if (!Array.isArray(sections)) return (sections as ReadonlyMap<string, CompiledSection>).get(id);
  const k = doc.sectionIds.indexOf(id);
  return k < 0 ? undefined : (sections as readonly CompiledSection[])[k];
}

/** Where the document sits in the caller's input, for paths and messages. */
export interface DocumentPlace {
  readonly api: string;
  /** Path prefix: `[index]` in a catalog, `[]` for a single document. */
  readonly path: readonly (string | number)[];
  /** How messages name the root: `documents` or `document`. */
  readonly root: string;
}

const DOCUMENT_KEYS = ['id', 'revision', 'locale', 'parts'] as const;
const SECTION_KEYS = ['id', 'parts'] as const;
/** Copies of input arrays up to this length are allocated at their length; longer ones grow. */
const MAX_PRESIZED = 1024;

/** An array allocated at `length`, so it has no spare capacity for the catalog to keep (V8 marks it holey). */
function presized<T>(length: number): T[] {
  return new Array<T>(length);
}

/**
 * A frozen empty array shaped like a frozen copy: V8 holds the frozen holey array shape only weakly,
 * so with no catalog alive (between benchmark rounds, say) it would be collected, and with it
 * `compileDocument`'s optimized code, which embeds it. These shared empties keep the shape alive.
 */
function frozenEmpty<T>(): readonly T[] {
  const list = presized<unknown>(1);
  list[0] = '';
  list.length = 0;
  return Object.freeze(list) as readonly T[];
}

const NONE: readonly string[] = frozenEmpty();
const NO_SECTIONS: readonly CompiledSection[] = frozenEmpty();

/**
 * A section while compiling: registered by its ID at its open (so a later duplicate finds it),
 * completed at its close. It is also its own locator: `parent` and `index` give its place in the
 * input tree, for paths in messages, so no per-section locator is allocated.
 */
interface Entry extends CompiledSection {
  node: KnowledgeSection;
  end: number;
  own: readonly string[] | undefined;
  readonly parent: Entry | undefined;
  readonly index: number;
}

/** An open section while compiling; reused for the next section once closed. */
interface Frame {
  src: readonly unknown[];
  /**
   * The copy, allocated at the first part with the input's length when that is at most
   * `MAX_PRESIZED` (so it holds no spare capacity, which the catalog would keep), and filled by index;
   * `undefined` before.
   */
  out: KnowledgePart[] | undefined;
  /** The input section object; `undefined` for the document's own parts. */
  node: object | undefined;
  entry: Entry | undefined;
  id: string;
  /** Where this section's strings start in `texts`. */
  start: number;
  /** Its own strings, started from `texts` when its first child section opens. */
  own: string[] | undefined;
  i: number;
}

/** Stands in for a section's node until its close completes the entry. */
const PENDING: KnowledgeSection = Object.freeze({ id: '', parts: NONE });

/** What messages need: the place of the document, its ID once known, and where issues go. */
interface Context {
  readonly at: DocumentPlace;
  readonly issues: KnowledgeIssue[];
  documentId: string | undefined;
}

/** The input path of the part at `index` under `parent` (the document's parts when `undefined`). */
function pathOf(
  at: DocumentPlace,
  parent: Entry | undefined,
  index: number,
  ...rest: (string | number)[]
): (string | number)[] {
  const indexes: number[] = [index];
  for (let e = parent; e !== undefined; e = e.parent) indexes.push(e.index);
  const path: (string | number)[] = [...at.path];
  for (let k = indexes.length - 1; k >= 0; k--) path.push('parts', indexes[k]!);
  path.push(...rest);
  return path;
}

/** Record an issue; messages name the place and, once known, the document: `documents[2].parts[0] in \`guide\``. */
function report(
  ctx: Context,
  code: KnowledgeIssue['code'],
  path: (string | number)[],
  what: string,
  sectionId?: string,
): void {
  const { at, documentId } = ctx;
  ctx.issues.push({
    code,
    path,
    ...(documentId === undefined ? {} : { documentId }),
    ...(sectionId === undefined ? {} : { sectionId }),
    message: `${at.api}: ${formatPath(at.root, path)}${documentId === undefined ? '' : ` in \`${documentId}\``}: ${what}`,
  });
}

function invalid(ctx: Context, path: (string | number)[], what: string): void {
  report(ctx, 'INVALID_INPUT', path, what);
}

/** The input objects on the path to the top of `stack`: the document and every open section. */
function ancestors(input: object, stack: readonly Frame[]): Set<object> {
  const set = new Set<object>([input]);
  for (const frame of stack) if (frame.node !== undefined) set.add(frame.node);
  return set;
}

/** Validate and compile `input`, pushing problems to `issues`; returns `undefined` when it is unusable. */
export function compileDocument(
  input: unknown,
  at: DocumentPlace,
  issues: KnowledgeIssue[],
): CompiledDocument | undefined {
  const before = issues.length;
  const ctx: Context = { at, issues, documentId: undefined };
  if (!isPlainObject(input)) {
    invalid(
      ctx,
      [...at.path],
      `expected a document { id, revision, locale?, parts }, got ${describe(input)}.`,
    );
    return undefined;
  }
  const id = own(input, 'id');
  const revision = own(input, 'revision');
  const locale = own(input, 'locale');
  const parts = own(input, 'parts');
  if (isNonEmptyString(id)) ctx.documentId = id;
  for (const key of extraKeys(input, DOCUMENT_KEYS)) {
    invalid(
      ctx,
      [...at.path, key],
      `unknown document key \`${key}\`. Allowed keys: ${DOCUMENT_KEYS.join(', ')}.`,
    );
  }
  if (ctx.documentId === undefined)
    invalid(
      ctx,
      [...at.path, 'id'],
      `the document ID must be a non-empty string, got ${describe(id)}.`,
    );
  if (!isNonEmptyString(revision)) {
    invalid(
      ctx,
      [...at.path, 'revision'],
      `the revision must be a non-empty string (a content hash or version your app computes), got ${describe(revision)}.`,
    );
  }
  if (locale !== undefined && !isNonEmptyString(locale)) {
    invalid(
      ctx,
      [...at.path, 'locale'],
      `the locale must be a non-empty string or absent, got ${describe(locale)}.`,
    );
  }
  if (!Array.isArray(parts)) {
    invalid(
      ctx,
      [...at.path, 'parts'],
      `\`parts\` must be an array of strings and sections, got ${describe(parts)}.`,
    );
    return undefined;
  }

  let texts: string[] = [];
  // Sections by ID: `ids` with `entries` beside it up to `MAX_LISTED`, then `map` (and `ids` only).
  let ids: string[] | undefined;
  let entries: Entry[] | undefined;
  let map: Map<string, Entry> | undefined;
  // Cycle detection without a Set operation per section. In plain data a section that contains
  // itself is met again with the ID it had the first time, so the revisit is a duplicate ID or an
  // invalid one (or the document object itself): only then is the part looked up among its
  // ancestors. The ancestor set is built from the stack at the first such lookup, kept from then on.
  let onPath: Set<object> | undefined;
  const stack: Frame[] = [
    {
      src: parts,
      out: undefined,
      node: undefined,
      entry: undefined,
      id: '',
      start: 0,
      own: undefined,
      i: 0,
    },
  ];
  let root: KnowledgePart[] | undefined;
  // The frame of the section closed last, for the next section to reuse: most sections open right
  // after one closes, so a document allocates few frames beyond its depth, not one per section (the
  // garbage collector's copying of them was most of the compile time of a section-dense document).
  let spare: Frame | undefined;

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    const length = frame.src.length;
    if (frame.i === length) {
      stack.pop();
      const out: KnowledgePart[] = frame.out ?? [];
      Object.freeze(out);
      const entry = frame.entry;
      if (entry === undefined) root = out;
      else {
        onPath?.delete(frame.node!);
        const node: KnowledgeSection = Object.freeze({ id: frame.id, parts: out });
        stack[stack.length - 1]!.out![entry.index] = node;
        entry.node = node;
        entry.end = texts.length;
        if (frame.own !== undefined)
          entry.own = frame.own.length === 0 ? NONE : Object.freeze(frame.own);
        spare = frame;
      }
      continue;
    }
    const index = frame.i++;
    if (index === 0) frame.out = length <= MAX_PRESIZED ? presized(length) : [];
    const part: unknown = frame.src[index];
    if (typeof part === 'string') {
      frame.out![index] = part;
      if (part.length > 0) {
        texts.push(part);
        frame.own?.push(part);
      }
      continue;
    }
    const parent = frame.entry;
    if (!isPlainObject(part)) {
      invalid(
        ctx,
        pathOf(at, parent, index),
        `a part must be a string or a section { id, parts }, got ${describe(part)}.`,
      );
      continue;
    }
    const sectionId = own(part, 'id');
    const sectionParts = own(part, 'parts');
    const id = typeof sectionId === 'string' ? sectionId : '';
    let first: Entry | undefined;
    if (id === '' || ids === undefined) first = undefined;
    else if (map !== undefined) first = map.get(id);
    else {
      const k = ids.indexOf(id);
      first = k < 0 ? undefined : entries![k];
    }
    if (id === '' || first !== undefined || part === input) {
      onPath ??= ancestors(input, stack);
      if (onPath.has(part)) {
        report(
          ctx,
          'CYCLE',
          pathOf(at, parent, index),
          'this section contains itself (it is one of its own ancestors). Parts must form a tree: build a new section object instead of reusing an ancestor.',
        );
        continue;
      }
    }
    for (const key of extraKeys(part, SECTION_KEYS)) {
      invalid(
        ctx,
        pathOf(at, parent, index, key),
        `unknown section key \`${key}\`. A section is { id, parts }.`,
      );
    }
    // Every section gets an entry (it locates its children in messages); only a valid, first use of
    // an ID is registered. `node`, `end` and `own` are completed at the close.
    const entry: Entry = {
      node: PENDING,
      start: texts.length,
      end: 0,
      own: undefined,
      parent,
      index,
    };
    if (id === '') {
      invalid(
        ctx,
        pathOf(at, parent, index, 'id'),
        `a section ID must be a non-empty string, got ${describe(sectionId)}.`,
      );
    } else if (first === undefined) {
      if (ids === undefined) {
        ids = [id];
        entries = [entry];
      } else {
        ids.push(id);
        if (map !== undefined) map.set(id, entry);
        else if (ids.length <= MAX_LISTED) entries!.push(entry);
        else {
          map = new Map();
          for (let k = 0; k < entries!.length; k++) map.set(ids[k]!, entries![k]!);
          map.set(id, entry);
          entries = undefined;
        }
      }
    } else {
      report(
        ctx,
        'DUPLICATE_SECTION_ID',
        pathOf(at, parent, index, 'id'),
        `section ID \`${id}\` is already used at ${formatPath(at.root, pathOf(at, first.parent, first.index))}; section IDs are unique within the whole document, not only among siblings. Rename one of them.`,
        id,
      );
    }
    if (!Array.isArray(sectionParts)) {
      invalid(
        ctx,
        pathOf(at, parent, index, 'parts'),
        `\`parts\` must be an array of strings and sections, got ${describe(sectionParts)}.`,
      );
      continue;
    }
    onPath?.add(part);
    // The parent's strings so far are all its own: from here on its own strings need a list.
    if (parent !== undefined) frame.own ??= texts.slice(frame.start);
    const next = spare;
    spare = undefined;
    if (next === undefined)
      stack.push({
        src: sectionParts,
        out: undefined,
        node: part,
        entry,
        id,
        start: texts.length,
        own: undefined,
        i: 0,
      });
    else {
      next.src = sectionParts;
      next.out = undefined;
      next.node = part;
      next.entry = entry;
      next.id = id;
      next.start = texts.length;
      next.own = undefined;
      next.i = 0;
      stack.push(next);
    }
  }

  if (issues.length > before) return undefined;
  const document: KnowledgeDocument = Object.freeze(
    locale === undefined
      ? { id: ctx.documentId!, revision: revision as string, parts: root! }
      : {
          id: ctx.documentId!,
          revision: revision as string,
          locale: locale as string,
          parts: root!,
        },
  );
  // Kept for the catalog's life, so without a grown array's spare capacity: a document without
  // sections whose parts are all non-empty strings has its parts as its texts.
  if (ids === undefined && texts.length === root!.length) texts = root as string[];
  else if (texts.length <= MAX_PRESIZED) texts = texts.slice();
  if (ids === undefined) return { document, texts, sections: NO_SECTIONS, sectionIds: NONE };
  return {
    document,
    texts,
    sections: map ?? entries!.slice(),
    sectionIds: Object.freeze(ids.length <= MAX_PRESIZED ? ids.slice() : ids),
  };
}
