import { defineConfig } from 'tsup';

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
  dts: true,
  clean: true,
  sourcemap: true,
  treeshake: true,
});
