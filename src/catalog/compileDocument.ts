/**
 * Validates one input document and, in the same iterative pass, copies it into frozen nodes and
 * builds what makes a read cost what it returns: every non-empty string part in pre-order (`texts`),
 * each section's range in it, and, for a section with child sections only, its own strings (a leaf's
 * own strings are its range). Internal.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { describe, formatPath, isNonEmptyString, isPlainObject, own } from '../internal/values.js';
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
  readonly sections: ReadonlyMap<string, CompiledSection>;
  readonly sectionIds: readonly string[];
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
const NONE: readonly string[] = Object.freeze([]);

/**
 * A section while compiling: registered in `sections` at its open (so a later duplicate finds it),
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
  out: KnowledgePart[];
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
function pathOf(at: DocumentPlace, parent: Entry | undefined, index: number, ...rest: (string | number)[]): (string | number)[] {
  const indexes: number[] = [index];
  for (let e = parent; e !== undefined; e = e.parent) indexes.push(e.index);
  const path: (string | number)[] = [...at.path];
  for (let k = indexes.length - 1; k >= 0; k--) path.push('parts', indexes[k]!);
  path.push(...rest);
  return path;
}

/** Record an issue; messages name the place and, once known, the document: `documents[2].parts[0] in \`guide\``. */
function report(ctx: Context, code: KnowledgeIssue['code'], path: (string | number)[], what: string, sectionId?: string): void {
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
export function compileDocument(input: unknown, at: DocumentPlace, issues: KnowledgeIssue[]): CompiledDocument | undefined {
  const before = issues.length;
  const ctx: Context = { at, issues, documentId: undefined };
  if (!isPlainObject(input)) {
    invalid(ctx, [...at.path], `expected a document { id, revision, locale?, parts }, got ${describe(input)}.`);
    return undefined;
  }
  const id = own(input, 'id');
  const revision = own(input, 'revision');
  const locale = own(input, 'locale');
  const parts = own(input, 'parts');
  if (isNonEmptyString(id)) ctx.documentId = id;
  for (const key of extraKeys(input, DOCUMENT_KEYS)) {
    invalid(ctx, [...at.path, key], `unknown document key \`${key}\`. Allowed keys: ${DOCUMENT_KEYS.join(', ')}.`);
  }
  if (ctx.documentId === undefined) invalid(ctx, [...at.path, 'id'], `the document ID must be a non-empty string, got ${describe(id)}.`);
  if (!isNonEmptyString(revision)) {
    invalid(ctx, [...at.path, 'revision'], `the revision must be a non-empty string (a content hash or version your app computes), got ${describe(revision)}.`);
  }
  if (locale !== undefined && !isNonEmptyString(locale)) {
    invalid(ctx, [...at.path, 'locale'], `the locale must be a non-empty string or absent, got ${describe(locale)}.`);
  }
  if (!Array.isArray(parts)) {
    invalid(ctx, [...at.path, 'parts'], `\`parts\` must be an array of strings and sections, got ${describe(parts)}.`);
    return undefined;
  }

  const texts: string[] = [];
  const sections = new Map<string, Entry>();
  const sectionIds: string[] = [];
  // Cycle detection without a Set operation per section. In plain data a section that contains
  // itself is met again with the ID it had the first time, so the revisit is a duplicate ID or an
  // invalid one (or the document object itself): only then is the part looked up among its
  // ancestors. The ancestor set is built from the stack at the first such lookup, kept from then on.
  let onPath: Set<object> | undefined;
  const root: KnowledgePart[] = [];
  const stack: Frame[] = [{ src: parts, out: root, node: undefined, entry: undefined, id: '', start: 0, own: undefined, i: 0 }];
  // The frame of the section closed last, for the next section to reuse: most sections open right
  // after one closes, so a document allocates few frames beyond its depth, not one per section (the
  // garbage collector's copying of them was most of the compile time of a section-dense document).
  let spare: Frame | undefined;

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.i === frame.src.length) {
      stack.pop();
      Object.freeze(frame.out);
      const entry = frame.entry;
      if (entry !== undefined) {
        onPath?.delete(frame.node!);
        const node: KnowledgeSection = Object.freeze({ id: frame.id, parts: frame.out });
        stack[stack.length - 1]!.out.push(node);
        entry.node = node;
        entry.end = texts.length;
        if (frame.own !== undefined) entry.own = frame.own.length === 0 ? NONE : Object.freeze(frame.own);
        spare = frame;
      }
      continue;
    }
    const index = frame.i++;
    const part: unknown = frame.src[index];
    if (typeof part === 'string') {
      frame.out.push(part);
      if (part.length > 0) {
        texts.push(part);
        frame.own?.push(part);
      }
      continue;
    }
    const parent = frame.entry;
    if (!isPlainObject(part)) {
      invalid(ctx, pathOf(at, parent, index), `a part must be a string or a section { id, parts }, got ${describe(part)}.`);
      continue;
    }
    const sectionId = own(part, 'id');
    const sectionParts = own(part, 'parts');
    const id = typeof sectionId === 'string' ? sectionId : '';
    const first = id === '' ? undefined : sections.get(id);
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
      invalid(ctx, pathOf(at, parent, index, key), `unknown section key \`${key}\`. A section is { id, parts }.`);
    }
    // Every section gets an entry (it locates its children in messages); only a valid, first use of
    // an ID is registered. `node`, `end` and `own` are completed at the close.
    const entry: Entry = { node: PENDING, start: texts.length, end: 0, own: undefined, parent, index };
    if (id === '') {
      invalid(ctx, pathOf(at, parent, index, 'id'), `a section ID must be a non-empty string, got ${describe(sectionId)}.`);
    } else if (first === undefined) {
      sections.set(id, entry);
      sectionIds.push(id);
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
      invalid(ctx, pathOf(at, parent, index, 'parts'), `\`parts\` must be an array of strings and sections, got ${describe(sectionParts)}.`);
      continue;
    }
    onPath?.add(part);
    // The parent's strings so far are all its own: from here on its own strings need a list.
    if (parent !== undefined) frame.own ??= texts.slice(frame.start);
    const next = spare;
    spare = undefined;
    if (next === undefined) stack.push({ src: sectionParts, out: [], node: part, entry, id, start: texts.length, own: undefined, i: 0 });
    else {
      next.src = sectionParts;
      next.out = [];
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
      ? { id: ctx.documentId!, revision: revision as string, parts: root }
      : { id: ctx.documentId!, revision: revision as string, locale: locale as string, parts: root },
  );
  return { document, texts, sections, sectionIds: Object.freeze(sectionIds) };
}
