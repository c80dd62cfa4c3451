/** `knowledge-kit outline [dir]`: each document with its sections as a tree, with their sizes. */
import { OUTLINE_HELP } from '../help.js';
import type { KnowledgeCatalog, KnowledgePart } from '../../types.js';
import { countCodePoints } from '../../internal/codePoints.js';
import { parseCommandArgs } from '../args.js';
import { loadFolder } from '../folder.js';
import { EXIT, type CliIo } from '../io.js';
import { count } from '../problems.js';

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

/** Runs `outline`. */
export async function outline(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    'outline',
    argv,
    { json: { type: 'boolean' }, 'follow-links': { type: 'boolean' } },
    1,
  );
  if (values['help'] === true) {
    io.stdout.write(`${OUTLINE_HELP}\n`);
    return EXIT.ok;
  }
  const dir = positionals[0] ?? '.';
  const loaded = await loadFolder('outline', dir, io, {
    followLinks: values['follow-links'] === true,
  });
  const { catalog } = loaded;
  const documents = catalog.ids.map((id) => {
    const document = catalog.document(id);
    const chars = countCodePoints(
      catalog.read({
        documentId: id,
        selection: { mode: 'document' },
        maxChars: Number.MAX_SAFE_INTEGER,
      }).content,
    );
    return {
      id,
      file: loaded.paths[id]!,
      locale: document.locale ?? null,
      revision: document.revision,
      chars,
      sections: outlineOf(catalog, id, document.parts),
    };
  });
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
  }
  lines.push(
    `${count(documents.length, 'document')}, ${count(
      documents.reduce((n, d) => n + catalog.sectionIds(d.id).length, 0),
      'section',
    )}`,
  );
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.ok;
}
