/**
 * Why `dist/` must be built, or `undefined` when it is up to date; with `declarations: false`, its
 * bundles only.
 */
export declare function staleReason(options?: {
  readonly declarations?: boolean;
}): string | undefined;
/** Build with tsup when `dist/` is stale (or always, with `force`); returns whether it built. */
export declare function buildIfStale(options?: {
  readonly force?: boolean;
  readonly caller?: string;
}): boolean;
/**
 * For a test run: the bundles now when stale, the declarations in a child process; settles when the
 * declarations are built (rejects with tsup's output when they fail).
 */
export declare function buildForTests(options?: { readonly caller?: string }): Promise<void>;
/** Waits while a test run builds the declarations, then throws when `dist/` is still not up to date. */
export declare function declarationsReady(options?: { readonly timeoutMs?: number }): Promise<void>;
