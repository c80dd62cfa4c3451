/**
 * `knowledge-kit outline [dir]` (or `--database <url> --kb <id>`): each document with its sections as
 * a tree and its headings indented by depth, with their sizes.
 */
import { OUTLINE_HELP } from '../help.js';
import type { KnowledgeCatalog, KnowledgePart } from '../../types.js';
import { countCodePoints } from '../../shared/codePoints.js';
import type { FileHeadingInfo, KnowledgeSource, ListTreeOutput } from '../../agent/index.js';
import { pageHeadings } from '../../agent/internals.js';
import type { LoadedKnowledgeDirectory } from '../../node/index.js';
import { openSource, parseSourceArgs } from '../openSource.js';
import { EXIT, type CliIo } from '../io.js';
import { count, escapeControls } from '../problems.js';

/** One section of the outline. */
interface OutlineSection {
  readonly id: string;
  readonly self: number;
  readonly subtree: number;
  readonly sections: OutlineSection[];
}

/** The sections of `parts`, with sizes read from the catalog (explicit stack, depth from the input). */
function outlineOf(
  catalog: KnowledgeCatalog,
  documentId: string,
  parts: readonly KnowledgePart[],
): OutlineSection[] {
  const size = (mode: 'self' | 'subtree', id: string) =>
    countCodePoints(
      catalog.read({
        documentId,
        selection: { mode, sectionIds: [id] },
        maxChars: Number.MAX_SAFE_INTEGER,
      }).content,
    );
  const root: OutlineSection[] = [];
  const stack: { parts: readonly KnowledgePart[]; into: OutlineSection[] }[] = [
    { parts, into: root },
  ];
  while (stack.length > 0) {
    const { parts: current, into } = stack.pop()!;
    for (const part of current) {
      if (typeof part === 'string') continue;
      const section: OutlineSection = {
        id: part.id,
        self: size('self', part.id),
        subtree: size('subtree', part.id),
        sections: [],
      };
      into.push(section);
      stack.push({ parts: part.parts, into: section.sections });
    }
  }
  return root;
}

/** One document of the outline. */
interface OutlineDocument {
  readonly id: string;
  readonly file: string;
  readonly locale: string | null;
  readonly revision: string | number;
  readonly chars: number;
  readonly sections: OutlineSection[];
  /** Every heading outside code, as `get_file` lists them. */
  readonly headings: readonly FileHeadingInfo[];
}

/** The documents of a folder loaded whole, from its catalog. */
function catalogOutline(loaded: LoadedKnowledgeDirectory): OutlineDocument[] {
  const { catalog } = loaded;
  return catalog.ids.map((id) => {
    const document = catalog.document(id);
    const text = catalog.read({
      documentId: id,
      selection: { mode: 'document' },
      maxChars: Number.MAX_SAFE_INTEGER,
    }).content;
    const chars = countCodePoints(text);
    return {
      id,
      file: loaded.paths[id]!,
      locale: document.locale ?? null,
      revision: document.revision,
      chars,
      sections: outlineOf(catalog, id, document.parts),
      headings: pageHeadings(text).map((h) => ({
        id: h.id,
        text: h.text,
        depth: h.depth,
        chars: h.end - h.start,
      })),
    };
  });
}

/**
 * The documents of a source (a knowledge base of a database), through the tools an agent has: every
 * page `list_tree` lists under `pages`, its sections from `get_file`, its size from a whole `read_file`.
 */
async function sourceOutline(source: KnowledgeSource): Promise<OutlineDocument[]> {
  const pages: string[] = [];
  const folders = ['pages'];
  while (folders.length > 0) {
    const parentPath = folders.shift()!;
    let cursor: string | null = null;
    do {
      const listed: ListTreeOutput = await source.listTree({ parentPath, limit: 200, cursor });
      for (const item of listed.items)
        if (item.entryType === 'directory') folders.push(item.path);
        else if (item.fileKind === 'page' && item.contentAvailable) pages.push(item.fileId);
      cursor = listed.nextCursor;
    } while (cursor !== null);
  }
  const documents: OutlineDocument[] = [];
  for (const fileId of pages) {
    const file = await source.getFile({ fileId });
    const whole = await source.readFile({ fileId, maxChars: Number.MAX_SAFE_INTEGER });
    const root: OutlineSection[] = [];
    const byId = new Map<string, OutlineSection>();
    for (const info of file.sections) {
      const section = {
        id: info.id,
        self: info.selfChars,
        subtree: info.subtreeChars,
        sections: [],
      };
      byId.set(info.id, section);
      (info.parentId === null ? root : (byId.get(info.parentId)?.sections ?? root)).push(section);
    }
    documents.push({
      id: fileId,
      // A store keeps no file names: the page path under `pages/`, as the folder's file is named.
      file: file.path.startsWith('pages/') ? file.path.slice('pages/'.length) : file.path,
      locale: file.locale,
      revision: file.revision,
      chars: countCodePoints(whole.content),
      sections: root,
      headings: file.headings,
    });
  }
  return documents;
}

/** Sections in `sections` and every one inside them. */
function sectionCount(sections: readonly OutlineSection[]): number {
  let total = 0;
  const stack = [...sections];
  while (stack.length > 0) {
    total++;
    stack.push(...stack.pop()!.sections);
  }
  return total;
}

/** Runs `outline`. */
export async function outline(argv: readonly string[], io: CliIo): Promise<number> {
  const args = parseSourceArgs('outline', argv);
  if (args.help) {
    io.stdout.write(`${OUTLINE_HELP}\n`);
    return EXIT.ok;
  }
  const opened = await openSource(args, io, { served: { maxReadChars: Number.MAX_SAFE_INTEGER } });
  let documents: OutlineDocument[];
  try {
    documents =
      opened.loaded === undefined
        ? await sourceOutline(opened.single!.source)
        : catalogOutline(opened.loaded);
  } finally {
    await opened.close();
  }
  const { values } = args;
  if (values['json'] === true) {
    io.stdout.write(`${JSON.stringify({ documents }, null, 2)}\n`);
    return EXIT.ok;
  }
  const lines: string[] = [];
  for (const document of documents) {
    lines.push(
      `${document.id}  (${document.file}${document.locale === null ? '' : `, ${document.locale}`}, ${document.chars} chars)`,
    );
    const stack: { section: OutlineSection; depth: number }[] = document.sections
      .map((section) => ({ section, depth: 1 }))
      .reverse();
    while (stack.length > 0) {
      const { section, depth } = stack.pop()!;
      lines.push(
        `${'  '.repeat(depth)}${section.id}  self ${section.self} · subtree ${section.subtree}`,
      );
      for (let i = section.sections.length - 1; i >= 0; i--)
        stack.push({ section: section.sections[i]!, depth: depth + 1 });
    }
    for (const h of document.headings)
      lines.push(`${'  '.repeat(h.depth)}${'#'.repeat(h.depth)} ${h.text}  {#${h.id}}  ${h.chars}`);
  }
  lines.push(
    `${count(documents.length, 'document')}, ${count(
      documents.reduce((n, d) => n + sectionCount(d.sections), 0),
      'section',
    )}, ${count(
      documents.reduce((n, d) => n + d.headings.length, 0),
      'heading',
    )}`,
  );
  // IDs and file names come from the files: escaped as `check` escapes them, so that none can send a
  // terminal escape sequence or start a line of its own.
  io.stdout.write(`${lines.map(escapeControls).join('\n')}\n`);
  return EXIT.ok;
}
