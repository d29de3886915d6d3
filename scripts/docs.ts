// `npm run docs`: dist/docs/index.html, one self-contained page rendered by Redocly from the
// bundled contract in generated/, next to copies of that bundle (the page's download links).
import { execFile } from 'node:child_process';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildArtifacts, contractLocations, displayPath, findDrift, formatFinding } from './pipeline.ts';
import { findRemoteResources, makeSelfContained } from './docs/self-contained.ts';

const locations = contractLocations();
const docsDir = path.join(locations.root, 'dist', 'docs');
const page = path.join(docsDir, 'index.html');
const BUNDLES = ['openapi.yaml', 'openapi.json'];

process.exitCode = await buildDocs();

async function buildDocs(): Promise<number> {
  let started = performance.now();
  const built = await buildArtifacts(locations);
  if (!built.ok) {
    console.error(`docs: the contract does not pass ${built.failedStep}:`);
    for (const finding of built.findings) console.error(`  ${formatFinding(locations, finding)}`);
    return 1;
  }
  const drift = await findDrift(built.artifacts, locations.outDir);
  if (drift.length > 0) {
    const files = drift.map((item) => `${displayPath(locations, locations.outDir)}/${item.name} (${item.problem})`);
    console.error(`docs: generated/ does not match openapi/: ${files.join(', ')}. Run \`npm run generate\` first.`);
    return 1;
  }
  await mkdir(docsDir, { recursive: true });
  for (const name of BUNDLES) await copyFile(path.join(locations.outDir, name), path.join(docsDir, name));
  printLine('bundle', started, `checked generated/ is current; copied ${BUNDLES.join(', ')}`);

  started = performance.now();
  const rendered = await renderWithRedocly();
  if (!rendered.ok) {
    console.error(`docs: redocly build-docs failed:\n${rendered.output}`);
    return 1;
  }
  printLine('render', started, 'redocly build-docs --inlineBundle');

  started = performance.now();
  const html = makeSelfContained(await readFile(page, 'utf8'));
  await writeFile(page, html, 'utf8');
  const remote = findRemoteResources(html);
  if (remote.length > 0) {
    console.error(`docs: ${displayPath(locations, page)} would fetch from the network:`);
    for (const item of remote) console.error(`  ${item}`);
    return 1;
  }
  const size = `${Math.round(Buffer.byteLength(html) / 1024)} KiB`;
  printLine('check', started, `${displayPath(locations, page)} (${size}) fetches nothing from the network`);
  return 0;
}

async function renderWithRedocly(): Promise<{ ok: true } | { ok: false; output: string }> {
  const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
  const downloads = BUNDLES.map((name) => ({ title: `Download ${name}`, url: name }));
  const args = [
    cli,
    'build-docs',
    path.join(docsDir, 'openapi.yaml'),
    '--inlineBundle',
    `--output=${page}`,
    `--config=${locations.lintConfig}`,
    '--openapi.disableTelemetry=true',
    `--openapi.downloadUrls=${JSON.stringify(downloads)}`,
  ];
  const env = { ...process.env, REDOCLY_TELEMETRY: 'off', SCARF_ANALYTICS: 'false', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' };
  try {
    await promisify(execFile)(process.execPath, args, { cwd: locations.root, env, maxBuffer: 16 * 1024 * 1024 });
    return { ok: true };
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${stdout}${stderr}` || message };
  }
}

function printLine(step: string, startedAt: number, detail: string): void {
  console.log(`${step.padEnd(6)} ${`${Math.round(performance.now() - startedAt)} ms`.padStart(8)}  ${detail}`);
}
