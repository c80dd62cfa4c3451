import { defineConfig } from 'tsup';

/**
 * The bundles: one ES module per `exports` entry and the command, with shared chunks. The
 * declarations are `scripts/declarations.mjs` (TypeScript and rollup-plugin-dts), run after this:
 * this build empties `dist/` first. `npm run build` runs both.
 */
export default defineConfig({
  entry: {
    index: 'src/index.ts',
    'agent/index': 'src/agent/index.ts',
    'agent/adapters/index': 'src/agent/adapters/index.ts',
    'agent/exploration/index': 'src/agent/exploration/index.ts',
    'mcp/index': 'src/mcp/index.ts',
    'http/index': 'src/http/index.ts',
    'http/node/index': 'src/http/node/index.ts',
    'node/index': 'src/node/index.ts',
    'postgres/index': 'src/postgres/index.ts',
    cli: 'src/cli/main.ts',
  },
  format: ['esm'],
  target: 'es2022',
  platform: 'neutral',
  dts: false,
  clean: true,
  sourcemap: true,
  treeshake: true,
});
