// Builds dist/docs/: one self-contained page rendered by Redocly from the bundled contract in
// generated/, next to copies of that bundle (the page's download links).
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildArtifacts, type ContractLocations, displayPath, findDrift, formatFinding } from '../pipeline.ts';
import { withOperationIds } from './operation-ids.ts';
import { findRemoteResources, makeSelfContained } from './self-contained.ts';
import { docsLocations } from './status.ts';

export type DocsBuild = { ok: true } | { ok: false; problem: string };

/** Builds the docs; `print` receives one line per step with its duration. */
export async function buildDocs(
  locations: ContractLocations,
  print: (line: string) => void = console.log,
): Promise<DocsBuild> {
  const docs = docsLocations(locations);
  let started = performance.now();
  const built = await buildArtifacts(locations);
  if (!built.ok) {
    const findings = built.findings.map((finding) => `  ${formatFinding(locations, finding)}`);
    return { ok: false, problem: [`docs: the contract does not pass ${built.failedStep}:`, ...findings].join('\n') };
  }
  const drift = await findDrift(built.artifacts, locations.outDir);
  if (drift.length > 0) {
    const files = drift.map((item) => `${displayPath(locations, locations.outDir)}/${item.name} (${item.problem})`);
    return {
      ok: false,
      problem: `docs: generated/ does not match openapi/: ${files.join(', ')}. Run \`npm run generate\` first.`,
    };
  }
  const bundles = await Promise.all(
    docs.bundles.map(async (bundle) => ({ ...bundle, content: await readFile(bundle.source) })),
  );
  print(stepLine('bundle', started, 'checked generated/ is current'));

  const workDir = await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-'));
  try {
    started = performance.now();
    const json = bundles.find((bundle) => bundle.name === 'openapi.json');
    if (json === undefined) throw new Error('docs: the bundles to document include no openapi.json.');
    const input = path.join(workDir, 'openapi.json');
    await writeFile(input, JSON.stringify(withOperationIds(JSON.parse(json.content.toString('utf8')) as object)));
    const rendered = await renderWithRedocly(
      locations,
      input,
      path.join(workDir, 'index.html'),
      docs.bundles.map((bundle) => bundle.name),
    );
    if (!rendered.ok) return { ok: false, problem: `docs: redocly build-docs failed:\n${rendered.output}` };
    print(stepLine('render', started, 'redocly build-docs --inlineBundle'));

    started = performance.now();
    const html = makeSelfContained(await readFile(path.join(workDir, 'index.html'), 'utf8'));
    const remote = findRemoteResources(html);
    if (remote.length > 0) {
      return {
        ok: false,
        problem: [
          `docs: ${displayPath(locations, docs.page)} would fetch from the network:`,
          ...remote.map((item) => `  ${item}`),
        ].join('\n'),
      };
    }
    // The page goes last: until it is replaced, dist/docs/ reads as stale (see status.ts).
    await mkdir(docs.dir, { recursive: true });
    for (const bundle of bundles) await writeAtomically(bundle.copy, bundle.content);
    await writeAtomically(docs.page, html);
    const size = `${Math.round(Buffer.byteLength(html) / 1024)} KiB`;
    const copies = bundles.map((bundle) => bundle.name).join(', ');
    print(
      stepLine(
        'write',
        started,
        `${displayPath(locations, docs.page)} (${size}) fetches nothing from the network; copied ${copies}`,
      ),
    );
    return { ok: true };
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}

async function renderWithRedocly(
  locations: ContractLocations,
  input: string,
  output: string,
  downloadNames: string[],
): Promise<{ ok: true } | { ok: false; output: string }> {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  // Relative addresses: the bundles sit next to the page in dist/docs/ and next to /docs on the server.
  const downloads = downloadNames.map((name) => ({ title: `Download ${name}`, url: name }));
  const args = [
    cli,
    'build-docs',
    input,
    '--inlineBundle',
    `--output=${output}`,
    `--config=${locations.lintConfig}`,
    '--openapi.disableTelemetry=true',
    `--openapi.downloadUrls=${JSON.stringify(downloads)}`,
    // Shows the removal date under the deprecated badge of an operation.
    '--openapi.showExtensions=x-sunset',
  ];
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    SCARF_ANALYTICS: 'false',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  };
  try {
    await promisify(execFile)(process.execPath, args, { cwd: locations.root, env, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true };
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${stdout}${stderr}` || message };
  }
}

/** Readers (the server, a concurrent build) see the old file or the new one, never a partial one. */
async function writeAtomically(file: string, content: string | Buffer): Promise<void> {
  const temporary = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await writeFile(temporary, content);
    await rename(temporary, file);
  } finally {
    await rm(temporary, { force: true });
  }
}

function stepLine(step: string, startedAt: number, detail: string): string {
  return `${step.padEnd(6)} ${`${Math.round(performance.now() - startedAt)} ms`.padStart(8)}  ${detail}`;
}
