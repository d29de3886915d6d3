// Releasing the contract of a copy of the repository the way README's "Release a version" says,
// in this process: set info.version to what the changes call for, `npm run generate`, `npm run
// release`. For tests that need a release of an edit (its docs page, its entry, its version).
import { readFile, writeFile } from 'node:fs/promises';
import type { ContractLocations } from '../../scripts/pipeline/locations.ts';
import { regenerate } from '../../scripts/pipeline/regenerate.ts';
import { runGate } from '../../scripts/release/gate.ts';
import { runRelease } from '../../scripts/release/release-command.ts';
import { listReleases } from '../../scripts/release/release-files.ts';
import { readBase } from '../../scripts/release/releases.ts';
import { bumped, formatVersion } from '../../scripts/release/version.ts';
import { buildWorkingContract } from '../../scripts/release/working.ts';

/** The version the changes since the latest release call for: the one `npm run release` accepts. */
export async function versionCalledFor(locations: ContractLocations): Promise<string> {
  const working = await buildWorkingContract(locations);
  if (!working.ok) throw new Error(working.problem);
  const latest = (await listReleases(locations)).at(-1);
  if (latest === undefined) throw new Error('the copy has no release in releases/');
  const { bump } = runGate((await readBase(locations)).document, working.document);
  return formatVersion(bumped(latest.version, bump));
}

/** Sets info.version in openapi/openapi.yaml and regenerates: step 1. */
export async function setVersion(locations: ContractLocations, version: string): Promise<void> {
  const root = await readFile(locations.contract, 'utf8');
  // The first key `version` two spaces in is info's: openapi.yaml starts with `openapi` and `info`.
  await writeFile(locations.contract, root.replace(/^ {2}version: .*$/m, `  version: ${version}`), 'utf8');
  const generated = await regenerate(locations);
  if (!generated.ok) throw new Error(`npm run generate failed: ${JSON.stringify(generated.findings)}`);
}

/** `npm run release -- <version>` (step 3); throws with what it printed when it refuses. */
export async function release(locations: ContractLocations, version: string): Promise<void> {
  const lines: string[] = [];
  const print = (line: string) => lines.push(line);
  const code = await runRelease(locations, version, { print, printError: print });
  if (code !== 0) throw new Error(`npm run release -- ${version} refused:\n${lines.join('\n')}`);
}
