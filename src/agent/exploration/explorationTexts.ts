/**
 * Titles and descriptions of the exploration tools that differ from the base tools: they state the
 * session's rules so the model can follow them instead of running into `EXPLORATION_LIMIT`.
 */

/** Title and description of one exploration tool. */
export interface ExplorationToolText {
  readonly title: string;
  readonly description: string;
}

/** The texts of `search_files`, `read_file` and `exploration_status` in a bounded exploration. Frozen. */
export const EXPLORATION_TOOL_TEXTS = Object.freeze({
  search_files: Object.freeze({
    title: 'Search knowledge files (bounded exploration)',
    description: [
      "Find pages that may answer the user's question. The first search must be the complete question: call it with query null.",
      'Results are candidates, not evidence: read the promising pages (pages/**) with read_file.',
      'A follow-up search, with words from pages you read, is allowed only after reading a new page since the previous search, and only a few times (see exploration.followUpsLeft).',
      'searchStatus "no_candidates" is a successful empty result: then read index.md or call list_tree.',
      'Follow nextCursor with the same other parameters to page one search at no cost. When exploration.stopReason is set, answer from the pages read.',
    ].join(' '),
  }),
  read_file: Object.freeze({
    title: 'Read a knowledge file (bounded exploration)',
    description: [
      'Read one file by exactly one of fileId or path (set the other to null), using values returned by search_files or the other tools, after the first search.',
      'Pages (pages/**) are answer evidence: answer from them and cite file.snapshotId. index.md and _graph/** help discovery only, and each read costs budget like a page.',
      'Rereading a whole file with the same sections costs nothing and returns repeated: true; prefer new pages. exploration.readsLeft says how many reads are left.',
      'A text over the limit comes in parts (file.contentRange, nextCursor), each part one read: read the sections you need by sectionIds (sizes from get_file, or listed in the message) rather than every part, and follow nextCursor only when the next part is worth a read.',
    ].join(' '),
  }),
  exploration_status: Object.freeze({
    title: 'Exploration status',
    description: [
      'Check the exploration budgets (follow-up searches and reads left), the stop advice, and the pages read so far with the snapshotId to cite.',
      'Call it before answering: the answer may use only the pages listed in evidence, never search excerpts, index.md or relationships.',
    ].join(' '),
  }),
} satisfies Record<string, ExplorationToolText>);
