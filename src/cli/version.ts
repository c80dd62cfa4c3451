/** The package's version, read from its package.json (one folder above the built `dist/cli.js`). */
import { readFileSync } from 'node:fs';

/** `version` of knowledge-kit's package.json. */
export function packageVersion(): string {
  for (const path of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as {
        name?: unknown;
        version?: unknown;
      };
      if (pkg.name === 'knowledge-kit' && typeof pkg.version === 'string') return pkg.version;
    } catch {
      // not this folder: try the next
    }
  }
  return '0.0.0';
}
