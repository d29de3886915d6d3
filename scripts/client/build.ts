// `npm run build:client`, a step of the pipeline: the package @animal-store/client in client/dist: one ESM file for each entry (esbuild) and the
// declarations of the public types (TypeScript). The main entry leaves openapi-fetch and
// standardwebhooks to the consumer's install; the `msw` entry leaves msw, and carries everything else it runs: the mock
// app, the contract and the scenarios. Nothing it carries uses a Node API: client/tsconfig.json
// checks them without Node's types, so such a use fails the typecheck before it reaches a bundle.
import { mkdirSync, writeFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { load } from 'js-yaml';
import ts from 'typescript';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CLIENT_DIR = path.join(REPO_ROOT, 'client');

/**
 * Writes the package's build into `distDir` (client/dist by default), replacing what was there.
 * `declarations: false` leaves out the `.d.ts` files (the costly part), for builds that are only run.
 */
export async function buildClient(
  distDir = path.join(CLIENT_DIR, 'dist'),
  { declarations = true }: { declarations?: boolean } = {},
): Promise<void> {
  await rm(distDir, { recursive: true, force: true });
  const common: esbuild.BuildOptions = { bundle: true, format: 'esm', target: 'es2022', logLevel: 'warning' };
  await Promise.all([
    esbuild.build({
      ...common,
      entryPoints: [path.join(CLIENT_DIR, 'index.ts')],
      outfile: path.join(distDir, 'index.js'),
      platform: 'neutral',
      external: ['openapi-fetch', 'standardwebhooks'],
    }),
    esbuild.build({
      ...common,
      entryPoints: [path.join(CLIENT_DIR, 'msw', 'index.ts')],
      outfile: path.join(distDir, 'msw.js'),
      platform: 'browser',
      external: ['msw'],
      plugins: [yamlAsJson],
    }),
  ]);
  if (declarations) emitDeclarations(path.join(distDir, 'types'));
}

/** `mock/scenarios.yaml`, parsed at build time: the browser mocks embed the file the servers read. */
export const yamlAsJson: esbuild.Plugin = {
  name: 'yaml-as-json',
  setup(build) {
    build.onLoad({ filter: /\.ya?ml$/ }, async (args) => ({
      contents: JSON.stringify(load(await readFile(args.path, 'utf8'))),
      loader: 'json',
    }));
  },
};

/**
 * The declarations of the entries and of the modules they refer to. The `msw` entry's program
 * reaches the mock and server modules too: their declarations stay out, and an entry whose
 * public types refer to one fails the build.
 */
function emitDeclarations(typesDir: string): void {
  const configFile = path.join(CLIENT_DIR, 'tsconfig.build.json');
  const config = ts.getParsedCommandLineOfConfigFile(
    configFile,
    { outDir: typesDir },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
      },
    },
  );
  if (!config) throw new Error(`Cannot read ${configFile}.`);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options });
  const emitted = new Map<string, string>();
  const result = program.emit(undefined, (file, text) => {
    // TypeScript keeps the sources' `.ts` specifiers in declarations; the package's are `.js`.
    emitted.set(file, text.replace(/(['"])(\.{1,2}\/[^'"]+)\.ts\1/g, '$1$2.js$1'));
  });
  const problems = ts.getPreEmitDiagnostics(program).concat(result.diagnostics);
  if (problems.length > 0)
    throw new Error(
      ts.formatDiagnostics(problems, {
        getCanonicalFileName: (name) => name,
        getCurrentDirectory: () => REPO_ROOT,
        getNewLine: () => '\n',
      }),
    );
  const entries = ['index.d.ts', path.join('msw', 'index.d.ts')].map((entry) => path.join(typesDir, 'client', entry));
  for (const [file, text] of referencedDeclarations(entries, emitted)) {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/** `entries` and every declaration they refer to, directly or not; throws on one that was not emitted. */
function referencedDeclarations(entries: string[], emitted: Map<string, string>): Map<string, string> {
  const reached = new Map<string, string>();
  const visit = (file: string, from: string) => {
    if (reached.has(file)) return;
    const text = emitted.get(file);
    if (text === undefined) throw new Error(`${from} refers to ${file}, whose declarations were not emitted.`);
    reached.set(file, text);
    for (const [, specifier = ''] of text.matchAll(/(?:from |import\()['"](\.{1,2}\/[^'"]+)\.js['"]/g))
      visit(path.resolve(path.dirname(file), `${specifier}.d.ts`), file);
  };
  for (const entry of entries) visit(entry, 'the package');
  return reached;
}
