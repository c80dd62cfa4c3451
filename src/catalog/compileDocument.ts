/**
 * Validates one input document and, in the same iterative pass, copies it into frozen nodes and
 * indexes its sections by ID. Reads walk the frozen nodes (readSnapshot.ts); nothing else is kept,
 * so compiling allocates little beyond the copy. Internal.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { describe, formatPath, isNonEmptyString, isPlainObject, own, unknownKeys } from '../internal/values.js';
import type { KnowledgeDocument, KnowledgePart, KnowledgeSection } from '../types.js';

/** A compiled section: its frozen node. */
export interface CompiledSection {
  readonly node: KnowledgeSection;
}

/** A compiled document, ready for reads that cost what they return. */
export interface CompiledDocument {
  readonly document: KnowledgeDocument;
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
 * its node set at its close. It is also its own locator: `parent` and `index` give its place in the
 * input tree, for paths in messages, so no per-section locator is allocated.
 */
interface Entry extends CompiledSection {
  node: KnowledgeSection;
  readonly parent: Entry | undefined;
  readonly index: number;
}

interface Frame {
  readonly src: readonly unknown[];
  readonly out: KnowledgePart[];
  /** The input section object; `undefined` for the document's own parts. */
  readonly node: object | undefined;
  readonly entry: Entry | undefined;
  readonly id: string;
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
  for (const key of unknownKeys(input, DOCUMENT_KEYS)) {
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

  const sections = new Map<string, Entry>();
  const sectionIds: string[] = [];
  // Cycle detection without a Set operation per section. In plain data a section that contains
  // itself is met again with the ID it had the first time, so the revisit is a duplicate ID or an
  // invalid one (or the document object itself): only then is the part looked up among its
  // ancestors. The ancestor set is built from the stack at the first such lookup, kept from then on.
  let onPath: Set<object> | undefined;
  const root: KnowledgePart[] = [];
  const stack: Frame[] = [{ src: parts, out: root, node: undefined, entry: undefined, id: '', i: 0 }];

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
      }
      continue;
    }
    const index = frame.i++;
    const part: unknown = frame.src[index];
    if (typeof part === 'string') {
      frame.out.push(part);
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
    for (const key of unknownKeys(part, SECTION_KEYS)) {
      invalid(ctx, pathOf(at, parent, index, key), `unknown section key \`${key}\`. A section is { id, parts }.`);
    }
    // Every section gets an entry (it locates its children in messages); only a valid, first use of
    // an ID is registered. `node` is set at the close.
    const entry: Entry = { node: PENDING, parent, index };
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
    stack.push({ src: sectionParts, out: [], node: part, entry, id, i: 0 });
  }

  if (issues.length > before) return undefined;
  const document: KnowledgeDocument = Object.freeze(
    locale === undefined
      ? { id: ctx.documentId!, revision: revision as string, parts: root }
      : { id: ctx.documentId!, revision: revision as string, locale: locale as string, parts: root },
  );
  return { document, sections, sectionIds: Object.freeze(sectionIds) };
}
