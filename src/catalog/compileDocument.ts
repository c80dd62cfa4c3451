/**
 * Validates one input document and, in the same iterative pass, copies it into frozen nodes and
 * precomputes what reads need: every non-empty string part in pre-order (`texts`), and for each
 * section its own strings and its subtree's range in `texts`. Internal.
 */
import type { KnowledgeIssue } from '../errors/codes.js';
import { describe, formatPath, isNonEmptyString, isPlainObject, own, unknownKeys } from '../internal/values.js';
import type { KnowledgeDocument, KnowledgePart, KnowledgeSection } from '../types.js';

/** A compiled section: the frozen node and where its text lives. */
export interface CompiledSection {
  readonly node: KnowledgeSection;
  /** Its own non-empty string parts, children excluded. */
  readonly own: readonly string[];
  /** Its subtree's non-empty string parts are `texts[start, end)`. */
  readonly start: number;
  readonly end: number;
}

/** A compiled document, ready for reads that cost what they return. */
export interface CompiledDocument {
  readonly document: KnowledgeDocument;
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

/** A section's place in the input tree, kept only while compiling, to name where a duplicate first was. */
interface Locator {
  readonly parent: Locator | undefined;
  readonly index: number;
}

interface Frame {
  readonly src: readonly unknown[];
  readonly out: KnowledgePart[];
  readonly node: object | undefined;
  readonly loc: Locator | undefined;
  readonly own: string[] | undefined;
  readonly id: string;
  readonly start: number;
  i: number;
}

/** Validate and compile `input`, pushing problems to `issues`; returns `undefined` when it is unusable. */
export function compileDocument(input: unknown, at: DocumentPlace, issues: KnowledgeIssue[]): CompiledDocument | undefined {
  const before = issues.length;
  const pathOf = (loc: Locator | undefined, ...rest: (string | number)[]): (string | number)[] => {
    const indexes: number[] = [];
    for (let l = loc; l !== undefined; l = l.parent) indexes.push(l.index);
    const path: (string | number)[] = [...at.path];
    for (let k = indexes.length - 1; k >= 0; k--) path.push('parts', indexes[k]!);
    path.push(...rest);
    return path;
  };
  // Messages name the place and, once known, the document: `documents[2].parts[0] in \`guide\``.
  let documentId: string | undefined;
  const where = (path: (string | number)[]): string =>
    `${at.api}: ${formatPath(at.root, path)}${documentId === undefined ? '' : ` in \`${documentId}\``}`;
  const report = (code: KnowledgeIssue['code'], path: (string | number)[], what: string, sectionId?: string): void => {
    issues.push({
      code,
      path,
      ...(documentId === undefined ? {} : { documentId }),
      ...(sectionId === undefined ? {} : { sectionId }),
      message: `${where(path)}: ${what}`,
    });
  };
  const fail = (path: (string | number)[], what: string): void => report('INVALID_INPUT', path, what);

  if (!isPlainObject(input)) {
    fail([...at.path], `expected a document { id, revision, locale?, parts }, got ${describe(input)}.`);
    return undefined;
  }
  const id = own(input, 'id');
  const revision = own(input, 'revision');
  const locale = own(input, 'locale');
  const parts = own(input, 'parts');
  if (isNonEmptyString(id)) documentId = id;
  for (const key of unknownKeys(input, DOCUMENT_KEYS)) {
    fail([...at.path, key], `unknown document key \`${key}\`. Allowed keys: ${DOCUMENT_KEYS.join(', ')}.`);
  }
  if (documentId === undefined) fail([...at.path, 'id'], `the document ID must be a non-empty string, got ${describe(id)}.`);
  if (!isNonEmptyString(revision)) {
    fail([...at.path, 'revision'], `the revision must be a non-empty string (a content hash or version your app computes), got ${describe(revision)}.`);
  }
  if (locale !== undefined && !isNonEmptyString(locale)) {
    fail([...at.path, 'locale'], `the locale must be a non-empty string or absent, got ${describe(locale)}.`);
  }
  if (!Array.isArray(parts)) {
    fail([...at.path, 'parts'], `\`parts\` must be an array of strings and sections, got ${describe(parts)}.`);
    return undefined;
  }

  const texts: string[] = [];
  const sections = new Map<string, CompiledSection>();
  const firstAt = new Map<string, Locator>();
  const sectionIds: string[] = [];
  const onPath = new Set<object>([input]);
  const root: KnowledgePart[] = [];
  const stack: Frame[] = [{ src: parts, out: root, node: undefined, loc: undefined, own: undefined, id: '', start: 0, i: 0 }];

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.i === frame.src.length) {
      stack.pop();
      Object.freeze(frame.out);
      if (frame.node !== undefined) {
        onPath.delete(frame.node);
        const node = Object.freeze({ id: frame.id, parts: frame.out });
        stack[stack.length - 1]!.out.push(node);
        // With a duplicate ID this overwrites an entry, but then the document has an issue and is not returned.
        const ownTexts = frame.own!.length === 0 ? NONE : Object.freeze(frame.own!);
        sections.set(frame.id, { node, own: ownTexts, start: frame.start, end: texts.length });
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
    const loc: Locator = { parent: frame.loc, index };
    if (!isPlainObject(part)) {
      fail(pathOf(loc), `a part must be a string or a section { id, parts }, got ${describe(part)}.`);
      continue;
    }
    if (onPath.has(part)) {
      report(
        'CYCLE',
        pathOf(loc),
        'this section contains itself (it is one of its own ancestors). Parts must form a tree: build a new section object instead of reusing an ancestor.',
      );
      continue;
    }
    for (const key of unknownKeys(part, SECTION_KEYS)) {
      fail(pathOf(loc, key), `unknown section key \`${key}\`. A section is { id, parts }.`);
    }
    const sectionId = own(part, 'id');
    const sectionParts = own(part, 'parts');
    if (!isNonEmptyString(sectionId)) {
      fail(pathOf(loc, 'id'), `a section ID must be a non-empty string, got ${describe(sectionId)}.`);
    } else if (firstAt.has(sectionId)) {
      const first = formatPath(at.root, pathOf(firstAt.get(sectionId)));
      report(
        'DUPLICATE_SECTION_ID',
        pathOf(loc, 'id'),
        `section ID \`${sectionId}\` is already used at ${first}; section IDs are unique within the whole document, not only among siblings. Rename one of them.`,
        sectionId,
      );
    } else {
      firstAt.set(sectionId, loc);
      sectionIds.push(sectionId);
    }
    if (!Array.isArray(sectionParts)) {
      fail(pathOf(loc, 'parts'), `\`parts\` must be an array of strings and sections, got ${describe(sectionParts)}.`);
      continue;
    }
    onPath.add(part);
    const ownId = typeof sectionId === 'string' ? sectionId : '';
    stack.push({ src: sectionParts, out: [], node: part, loc, own: [], id: ownId, start: texts.length, i: 0 });
  }

  if (issues.length > before) return undefined;
  const document: KnowledgeDocument = Object.freeze(
    locale === undefined
      ? { id: documentId!, revision: revision as string, parts: root }
      : { id: documentId!, revision: revision as string, locale: locale as string, parts: root },
  );
  return { document, texts, sections, sectionIds: Object.freeze(sectionIds) };
}
