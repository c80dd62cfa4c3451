/** Why `dist/` must be built, or `undefined` when it is up to date. */
export declare function staleReason(): string | undefined;
/** Build with tsup when `dist/` is stale (or always, with `force`); returns whether it built. */
export declare function buildIfStale(options?: {
  readonly force?: boolean;
  readonly caller?: string;
}): boolean;
