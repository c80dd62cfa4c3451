/**
 * Titles and descriptions of the six tools: when to use each, what it returns and what to do next,
 * carrying the seed's policy in a few plain sentences.
 *
 * @module
 */
import type { KnowledgeToolName } from '../types.js';

/** Title and description of one tool. */
export interface KnowledgeToolText {
  readonly title: string;
  readonly description: string;
}

const CURSOR =
  'Follow nextCursor only with the same other parameters; on STALE_CURSOR restart without the cursor.';

/** The six tools' texts, by the seed's name. Frozen. */
export const KNOWLEDGE_TOOL_TEXTS: Readonly<Record<KnowledgeToolName, KnowledgeToolText>> =
  Object.freeze({
    search_files: Object.freeze({
      title: 'Search knowledge files',
      description: [
        "Find pages that may answer a question. Start every question here, with the user's complete standalone question as query and the default hybrid mode; search again (at most twice) only with words from pages you have read.",
        'Results are candidates, not evidence: read the pages (pages/**) with read_file before answering, and track the fileId and path of what you read to avoid reading it twice.',
        'searchStatus "no_candidates" is a successful empty result: then read index.md or call list_tree. SEARCH_TIMEOUT and SEARCH_UNAVAILABLE are errors, not empty results.',
        CURSOR,
      ].join(' '),
    }),
    read_file: Object.freeze({
      title: 'Read a knowledge file',
      description: [
        'Read one file by exactly one of fileId or path (set the other to null), using values returned by the other tools or Markdown links.',
        'Pages (pages/**) are answer evidence: answer from them and cite file.snapshotId. index.md and _graph/** are navigation aids, never evidence.',
        'Track fileId and path to avoid rereads. On CONTENT_TOO_LARGE, call get_file for section sizes and read by sectionIds.',
      ].join(' '),
    }),
    list_tree: Object.freeze({
      title: 'List knowledge files',
      description: [
        'List the files and directories directly under parentPath ("" is the root): directories first, then files.',
        'Use it to discover files when search_files finds nothing, together with index.md; read pages (pages/**) before answering.',
        CURSOR,
      ].join(' '),
    }),
    get_file: Object.freeze({
      title: 'Get knowledge file metadata',
      description: [
        "Get one file's metadata without its content: title, description, front matter, revision, and its sections with the size of each read.",
        'Use it before read_file to choose sections within your budget; metadata is not evidence.',
      ].join(' '),
    }),
    read_related: Object.freeze({
      title: 'Read related knowledge files',
      description: [
        'List pages related to one page: links to and from it, and pages sharing its tags, strongest first.',
        'Relationships are discovery hints, not evidence: read a related page with read_file before using it, and skip pages already read.',
        CURSOR,
      ].join(' '),
    }),
    expand_graph: Object.freeze({
      title: 'Expand the knowledge graph',
      description: [
        'Explore pages related to a promising page, breadth first up to depth hops, following the fanout strongest relationships of each file.',
        'Read returned pages with read_file before using them as evidence; never build _graph paths yourself.',
        CURSOR,
      ].join(' '),
    }),
  });

/** The six tool names, in the seed's order. */
export const KNOWLEDGE_TOOL_NAMES: readonly KnowledgeToolName[] = Object.freeze([
  'search_files',
  'read_file',
  'list_tree',
  'get_file',
  'read_related',
  'expand_graph',
] as const);
