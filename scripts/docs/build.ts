// Builds dist/docs/: self-contained pages rendered by Redocly, one of the working draft (from the
// bundle in generated/, next to copies of it, the page's download links), one of each release in
// releases/ (in dist/docs/<version>/), and the changelog, all joined by a version switcher.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { OpenApiDocument } from '../../contract/document.ts';
import { compress, type Encoding, isCompressible, PRECOMPRESSED_SUFFIX } from '../../node/http/compression.ts';
import { buildArtifacts } from '../pipeline/build.ts';
import { findDrift } from '../pipeline/files.ts';
import { formatFinding } from '../pipeline/lint.ts';
import { type ContractLocations, displayPath } from '../pipeline/locations.ts';
import { changelogFile } from '../release/changelog.ts';
import { listReleases, RELEASED_CONTRACT } from '../release/release-files.ts';
import { changelogPage } from './changelog-page.ts';
import { SAMPLE_LANGUAGES } from './code-samples.ts';
import { consoleAssets, withConsole } from './console/assets.ts';
import { CHANGELOG_PAGE, type Edition, editions, fromPage, withSwitcher } from './editions.ts';
import { type MarkdownFile, markdownFiles } from './markdown-pages.ts';
import { forThePage } from './presentation.ts';
import { renderCache } from './render-cache.ts';
import { findRemoteResources, makeSelfContained } from './self-contained.ts';
import { docsLocations, SERVICE_WORKER } from './status.ts';

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
  const json = bundles.find((bundle) => bundle.name === 'openapi.json');
  if (json === undefined) throw new Error('docs: the bundles to document include no openapi.json.');
  const draft = JSON.parse(json.content.toString('utf8')) as OpenApiDocument;
  const releases = await listReleases(locations);
  const all = editions(
    draft.info.version,
    releases.map((release) => release.name),
  );
  print(stepLine('bundle', started, `checked generated/ is current; ${releases.length} release(s) in releases/`));

  const workDir = await mkdtemp(path.join(os.tmpdir(), 'animal-store-docs-'));
  // A build ended by process.exit skips the finally below (the docs step of `npm start` exits so
  // when the server stops): the work folder, some 8 MB, goes as the process exits instead.
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  try {
    started = performance.now();
    // Every edition goes through Redocly, or through its cache when nothing that decides the page
    // changed: a release's contract never changes, but how the docs present it may (a badge, say),
    // and each published version shows the same.
    const releasePages = await Promise.all(
      releases.map(async (release) => ({
        edition: all.find((candidate) => candidate.name === release.name) as Edition,
        content: await readFile(release.file),
        dir: path.join(docs.dir, release.name),
      })),
    );
    const toRender = [
      { edition: all[0] as Edition, document: draft, downloads: docs.bundles.map((bundle) => bundle.name) },
      ...releasePages.map(({ edition, content }) => ({
        edition,
        document: JSON.parse(content.toString('utf8')) as OpenApiDocument,
        downloads: [RELEASED_CONTRACT],
      })),
    ];
    const rendered = new Map<string, string>();
    /** Each edition's Markdown for agents, written from the same copy of its contract as its page. */
    const markdown = new Map<string, MarkdownFile[]>();
    /** Pages Redocly rendered before from the same contract and options (render-cache.ts). */
    const reused: string[] = [];
    const failures: string[] = [];
    await Promise.all(
      toRender.map(async ({ edition, document, downloads }) => {
        const dir = path.join(workDir, edition.name);
        await mkdir(dir, { recursive: true });
        const input = path.join(dir, 'openapi.json');
        const shown = forThePage(document);
        await writeFile(input, JSON.stringify(shown));
        const changelog = fromPage(edition.page, CHANGELOG_PAGE);
        markdown.set(edition.name, markdownFiles(shown, { label: edition.label, downloads, changelog }));
        const result = await renderWithRedocly(locations, input, path.join(dir, 'index.html'), downloads);
        if (!result.ok) failures.push(`${edition.label}: ${result.output}`);
        else {
          rendered.set(edition.name, makeSelfContained(await readFile(path.join(dir, 'index.html'), 'utf8')));
          if (result.cached) reused.push(edition.name);
        }
      }),
    );
    if (failures.length > 0) return { ok: false, problem: `docs: redocly build-docs failed:\n${failures.join('\n')}` };
    const fromCache = reused.length > 0 ? ` (from the cache: ${reused.join(', ')})` : '';
    print(
      stepLine('render', started, `redocly build-docs --inlineBundle: ${[...rendered.keys()].join(', ')}${fromCache}`),
    );

    started = performance.now();
    // The console of the draft's page, whose mock answers as the draft does.
    const tryIt = await consoleAssets(draft);
    const pages = [...releasePages.map(({ edition }) => edition), all[0] as Edition].map((edition) => {
      const page = withSwitcher(rendered.get(edition.name) as string, all, edition.page);
      return { edition, html: edition === all[0] ? withConsole(page, tryIt) : page };
    });
    const changelog = changelogPage(await readFile(changelogFile(locations), 'utf8').catch(() => '# Changelog\n'), all);
    const remote = [
      ...pages.flatMap(({ edition, html }) => findRemoteResources(html).map((item) => `${edition.page}: ${item}`)),
      ...findRemoteResources(changelog)
        .filter((item) => !item.startsWith('telemetry'))
        .map((item) => `${CHANGELOG_PAGE}: ${item}`),
    ];
    if (remote.length > 0) {
      return {
        ok: false,
        problem: [
          `docs: ${displayPath(locations, docs.dir)}/ would fetch from the network:`,
          ...remote.map((item) => `  ${item}`),
        ].join('\n'),
      };
    }
    // Each file's compressed forms are written once all the files are, together, so that they
    // are no older than the files (the server and status.ts take an older one as stale).
    const served: Array<{ file: string; content: string | Buffer }> = [];
    const written = async (file: string, content: string | Buffer) => {
      await writeAtomically(file, content);
      served.push({ file, content });
    };
    // The draft's page goes last: until it is replaced, dist/docs/ reads as stale (see status.ts).
    await mkdir(docs.dir, { recursive: true });
    const writeMarkdown = async (edition: Edition, dir: string) => {
      const files = markdown.get(edition.name) ?? [];
      for (const file of files) {
        await mkdir(path.dirname(path.join(dir, file.path)), { recursive: true });
        await written(path.join(dir, file.path), file.content);
      }
      await removeOthers(dir, files);
    };
    for (const { dir, content, edition } of releasePages) {
      await mkdir(dir, { recursive: true });
      await writeMarkdown(edition, dir);
      await written(path.join(dir, RELEASED_CONTRACT), content);
      await written(path.join(docs.dir, edition.page), pages.find((page) => page.edition === edition)?.html as string);
    }
    await written(path.join(docs.dir, CHANGELOG_PAGE), changelog);
    for (const bundle of bundles) await written(bundle.copy, bundle.content);
    await written(path.join(docs.dir, SERVICE_WORKER), tryIt.worker);
    await writeMarkdown(all[0] as Edition, docs.dir);
    const draftPage = pages.at(-1)?.html as string;
    await written(docs.page, draftPage);
    await Promise.all(served.map(({ file, content }) => writeCompressedForms(file, content)));
    const size = `${Math.round(Buffer.byteLength(draftPage) / 1024)} KiB`;
    const copies = bundles.map((bundle) => bundle.name).join(', ');
    print(
      stepLine(
        'write',
        started,
        `${displayPath(locations, docs.page)} (${size}), ${releases.length} release page(s) and ${CHANGELOG_PAGE} fetch nothing from the network; copied ${copies}; the console's ${SERVICE_WORKER}`,
      ),
    );
    return { ok: true };
  } finally {
    process.off('exit', removeWorkDir);
    await rm(workDir, { recursive: true, force: true });
  }
}

const redoclyCli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
const REDOCLY_VERSION = (
  JSON.parse(await readFile(path.join(path.dirname(redoclyCli), '..', 'package.json'), 'utf8')) as { version: string }
).version;
const RENDERED = renderCache(path.join(path.dirname(redoclyCli), '..', '..', '..', '.cache', 'animal-store-docs'));

async function renderWithRedocly(
  locations: ContractLocations,
  input: string,
  output: string,
  downloadNames: string[],
): Promise<{ ok: true; cached: boolean } | { ok: false; output: string }> {
  // Relative addresses: the bundles sit next to the page in dist/docs/ and next to /docs on the server.
  const downloads = downloadNames.map((name) => ({ title: `Download ${name}`, url: name }));
  // Redoc's options as one JSON object: given in dot notation, a nested value arrives as a string.
  const redoc = {
    disableTelemetry: true,
    downloadUrls: downloads,
    // Shows the removal date under the deprecated badge of an operation.
    showExtensions: 'x-sunset',
    // Redoc offers a sample of x-codeSamples only when its label is a configured language.
    codeSamples: { languages: SAMPLE_LANGUAGES },
    // Every example shown whole: Redoc folds what is nested deeper than two levels (an endpoint's
    // events in a list of endpoints), which a reader would have to unfold value by value.
    jsonSamplesExpandLevel: 'all',
  };
  const options = ['--inlineBundle', `--openapi=${JSON.stringify(redoc)}`];
  const args = [redoclyCli, 'build-docs', input, `--output=${output}`, `--config=${locations.lintConfig}`, ...options];
  const env = {
    ...process.env,
    REDOCLY_TELEMETRY: 'off',
    SCARF_ANALYTICS: 'false',
    REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
  };
  // What decides the page: Redocly's version, the options, the lint configuration (Redocly reads
  // its theme there) and the contract; not where the files are.
  const decidedBy = [
    REDOCLY_VERSION,
    JSON.stringify(options),
    await readFile(locations.lintConfig),
    await readFile(input),
  ];
  const cached = await RENDERED.get(decidedBy);
  if (cached !== undefined) {
    await writeFile(output, cached);
    return { ok: true, cached: true };
  }
  try {
    await promisify(execFile)(process.execPath, args, { cwd: locations.root, env, maxBuffer: 16 * 1024 * 1024 });
    await RENDERED.set(decidedBy, await readFile(output, 'utf8'));
    return { ok: true, cached: false };
  } catch (error) {
    const { stdout = '', stderr = '', message } = error as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${stdout}${stderr}` || message };
  }
}

/**
 * Removes from the folders of `files` (`operations/`, `webhooks/`) what an earlier build wrote there
 * and this one did not: the page of an operation the contract no longer has.
 */
async function removeOthers(dir: string, files: MarkdownFile[]): Promise<void> {
  const kept = new Set(files.map((file) => path.join(dir, file.path)));
  const folders = new Set([...kept].map((file) => path.dirname(file)).filter((folder) => folder !== dir));
  for (const folder of folders) {
    for (const name of await readdir(folder)) {
      const file = path.join(folder, name);
      const original = Object.values(PRECOMPRESSED_SUFFIX).reduce(
        (base, suffix) => (base.endsWith(suffix) ? base.slice(0, -suffix.length) : base),
        file,
      );
      if (!kept.has(original)) await rm(file, { force: true });
    }
  }
}

/** For a text file of dist/docs/, its compressed forms beside it, which the server serves (node/http/compression.ts). */
async function writeCompressedForms(file: string, content: string | Buffer): Promise<void> {
  if (!isCompressible(file)) return;
  const bytes = Buffer.from(content);
  await Promise.all(
    (Object.keys(PRECOMPRESSED_SUFFIX) as Encoding[]).map(async (encoding) =>
      writeAtomically(`${file}${PRECOMPRESSED_SUFFIX[encoding]}`, await compress[encoding](bytes)),
    ),
  );
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
