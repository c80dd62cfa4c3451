/**
 * Type-checks the strict consumer app as `tsc -p <config>` does, with one difference: the semantic
 * check covers the app and the package's own declarations (`node_modules/knowledge-kit/`), not the
 * declarations of its dependencies (zod, the MCP SDK, Node's types). Those are three quarters of a
 * full check's time, and the test's `tsc` run under NodeNext checks them whole. Options, syntax and
 * global errors are checked in every file, as `tsc` does. Prints the errors, nothing when there are
 * none, and exits 1 when there are (or when the program holds none of the package's declarations).
 *
 * Usage, in the app's folder, as `tsc`'s: `node typecheck.mjs -p <tsconfig>`.
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

const configPath = resolve(process.argv[process.argv.indexOf('-p') + 1] ?? 'tsconfig.json');
const host = {
  getCanonicalFileName: (name) => name,
  getCurrentDirectory: () => process.cwd(),
  getNewLine: () => '\n',
};
const read = ts.readConfigFile(configPath, ts.sys.readFile);
if (read.error !== undefined) {
  process.stdout.write(ts.formatDiagnostics([read.error], host));
  process.exit(1);
}
const config = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(configPath));
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  configFileParsingDiagnostics: config.errors,
});
const packageFolder = `${resolve('node_modules', 'knowledge-kit')}/`;
const files = program.getSourceFiles();
const packageFiles = files.filter((file) => file.fileName.startsWith(packageFolder));
const diagnostics = [
  ...program.getConfigFileParsingDiagnostics(),
  ...program.getOptionsDiagnostics(),
  ...program.getSyntacticDiagnostics(),
  ...program.getGlobalDiagnostics(),
  ...files
    .filter((file) => !file.isDeclarationFile || file.fileName.startsWith(packageFolder))
    .flatMap((file) => program.getSemanticDiagnostics(file)),
];
if (packageFiles.length === 0)
  process.stdout.write(`the program holds no declaration file of ${packageFolder}\n`);
process.stdout.write(ts.formatDiagnostics(diagnostics, host));
process.exit(diagnostics.length === 0 && packageFiles.length > 0 ? 0 : 1);
