import leven from 'leven';

/**
 * Up to three candidates close to `target`, closest first; used only on error paths. Costs one pass
 * over `candidates`; a candidate whose length alone puts it out of reach is skipped without comparing,
 * so callers bound the work by how many times they call it (one call per request, or a few).
 */
export function suggest(target: string, candidates: Iterable<string>): string[] {
  const limit = Math.max(2, Math.floor(target.length / 3));
  const found: { id: string; distance: number }[] = [];
  for (const id of candidates) {
    if (Math.abs(id.length - target.length) > limit) continue;
    const distance = leven(target, id, { maxDistance: limit + 1 });
    if (distance <= limit) found.push({ id, distance });
  }
  found.sort((a, b) => a.distance - b.distance);
  return found.slice(0, 3).map((entry) => entry.id);
}

/** ` Did you mean `a` or `b`?` for a message, or nothing. */
export function didYouMean(suggestions: readonly string[]): string {
  if (suggestions.length === 0) return '';
  return ` Did you mean ${suggestions.map((s) => `\`${s}\``).join(' or ')}?`;
}
