// `npm run release -- <version>`: records the working contract as a release. It refuses unless
// info.version is that version, the version is the bump the changes since the latest release call
// for (major for a break of a stable operation, minor for additions, patch for documentation
// only), the gate passes and what `npm run generate` writes is current: generated/, and the client
// package's version, so that nothing is left at the old version. Then it writes
// releases/<version>/openapi.json and the version's CHANGELOG.md entry.
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { staleClientVersion } from '../pipeline/client-version.ts';
import { findDrift } from '../pipeline/files.ts';
import { type ContractLocations, displayPath } from '../pipeline/locations.ts';
import { readChangelog, unreleasedText, withRelease, writeChangelog } from './changelog.ts';
import { entryFromChanges } from './changelog-entry.ts';
import { type GateOptions, runGate } from './gate.ts';
import { listReleases, RELEASED_CONTRACT, releaseFile } from './release-files.ts';
import { readBase } from './releases.ts';
import { changeLine, sortJudgements, summaryLine } from './report.ts';
import { bumpBetween, bumped, formatVersion, parseVersion } from './version.ts';
import { buildWorkingContract } from './working.ts';

export interface ReleaseOptions extends GateOptions {
  print?: (line: string) => void;
  printError?: (line: string) => void;
}

/** Resolves to the exit status: 0 released, 1 refused. */
export async function runRelease(
  locations: ContractLocations,
  requested: string,
  options: ReleaseOptions = {},
): Promise<number> {
  const { print = console.log, printError = console.error } = options;
  const refuse = (reason: string) => {
    printError(`release: ${reason}`);
    return 1;
  };
  const version = parseVersion(requested);
  if (version === undefined) return refuse(`"${requested}" is not a version MAJOR.MINOR.PATCH (e.g. 1.1.0).`);
  const working = await buildWorkingContract(locations);
  if (!working.ok) return refuse(working.problem);
  if (working.document.info.version !== requested) {
    return refuse(
      `openapi/openapi.yaml says info.version ${working.document.info.version}; set it to ${requested} first (and run npm run generate).`,
    );
  }
  const releases = await listReleases(locations);
  if (releases.some((release) => release.name === requested)) return refuse(`${requested} is already released.`);

  let body: string;
  const changelog = await readChangelog(locations);
  const latest = releases.at(-1);
  if (latest === undefined) {
    body = unreleasedText(changelog) || '### Added\n\n- The first release of the contract.';
  } else {
    const base = await readBase(locations, latest.name);
    const result = runGate(base.document, working.document, options);
    for (const judgement of sortJudgements(result.judgements)) print(changeLine(judgement));
    print(summaryLine(result));
    if (!result.passed)
      return refuse(`the changes since ${latest.name} include breaking changes ${requested} does not allow.`);
    if (result.bump === 'none') return refuse(`the contract has not changed since ${latest.name}.`);
    const given = bumpBetween(latest.version, version);
    if (given !== result.bump) {
      const expected = formatVersion(bumped(latest.version, result.bump));
      const what = given === 'none' ? 'is not after' : `is a ${given} step from`;
      return refuse(
        `${requested} ${what} ${latest.name}, but the changes call for a ${result.bump} version: release ${expected}.`,
      );
    }
    body =
      unreleasedText(changelog) ||
      entryFromChanges(sortJudgements(result.judgements), { base: base.document, working: working.document });
  }

  const drift = await findDrift(working.artifacts, locations.outDir);
  if (drift.length > 0) {
    const files = drift.map((item) => `generated/${item.name} (${item.problem})`).join(', ');
    return refuse(`generated/ does not match openapi/: ${files}. Run \`npm run generate\` first.`);
  }
  const client = await staleClientVersion(locations, working.document);
  if (client !== undefined) {
    const manifest = displayPath(locations, locations.clientManifest);
    return refuse(`${manifest} says version ${client.stated}, not ${client.expected}. Run \`npm run generate\` first.`);
  }
  const json = working.artifacts.find((artifact) => artifact.name === RELEASED_CONTRACT);
  if (json === undefined) throw new Error(`The pipeline produced no ${RELEASED_CONTRACT}.`);
  const file = releaseFile(locations, requested);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, json.content, 'utf8');
  const date = (options.now ?? new Date()).toISOString().slice(0, 10);
  await writeChangelog(locations, withRelease(changelog, requested, date, body));
  print(`released ${requested}: wrote ${displayPath(locations, file)} and its entry in CHANGELOG.md.`);
  return 0;
}
