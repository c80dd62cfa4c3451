import type { Candidate } from './candidate.js';
import type { SearchRelation } from './port.js';

/** Share of its parent's score a page reached only by a relationship gets, times the weight. */
export const GRAPH_DECAY = 0.5;
/** Smallest weight used, so every score stays positive. */
const MIN_WEIGHT = 0.01;

/**
 * Graph mode: from the top `fanout` candidates, follow relationships breadth first up to `depth` hops,
 * at most `fanout` per page (strongest first, as the relation table lists them). A page reached only
 * this way scores its parent's score × `GRAPH_DECAY` × the weight, so it ranks below the page it was
 * reached from; a page already found is marked `graph` and keeps its score.
 *
 * @param ranked - candidates, best first.
 * @param relationsOf - a page's relationships by file ID, strongest first.
 * @param fileIdOf - page index → file ID.
 * @param pageOf - file ID → page index.
 * @param depth - hops, 1..3.
 * @param fanout - seeds, and relationships followed per page.
 * @returns every candidate, best first.
 */
export function addRelatedPages(
  ranked: readonly Candidate[],
  relationsOf: (fileId: string) => readonly Pick<SearchRelation, 'fileId' | 'weight'>[],
  fileIdOf: (page: number) => string,
  pageOf: ReadonlyMap<string, number>,
  depth: number,
  fanout: number,
): Candidate[] {
  const byPage = new Map<number, Candidate>(ranked.map((c) => [c.page, c]));
  const all = [...ranked];
  let frontier = ranked.slice(0, fanout);
  for (let hop = 0; hop < depth && frontier.length > 0; hop++) {
    const next: Candidate[] = [];
    for (const parent of frontier) {
      const list = relationsOf(fileIdOf(parent.page));
      for (let r = 0; r < list.length && r < fanout; r++) {
        const relation = list[r]!;
        const page = pageOf.get(relation.fileId);
        if (page === undefined || page === parent.page) continue;
        const score = parent.score * GRAPH_DECAY * Math.max(relation.weight, MIN_WEIGHT);
        const found = byPage.get(page);
        if (found === undefined) {
          const fresh: Candidate = {
            page,
            score,
            lexical: undefined,
            semantic: undefined,
            graph: true,
          };
          byPage.set(page, fresh);
          all.push(fresh);
          next.push(fresh);
        } else {
          found.graph = true;
          if (found.lexical === undefined && found.semantic === undefined && score > found.score)
            found.score = score;
        }
      }
    }
    frontier = next;
  }
  return all.sort((a, b) => b.score - a.score);
}
