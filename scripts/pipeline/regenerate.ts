import { type BuildResult, buildArtifacts } from './build.ts';
import { writeClientVersion } from './client-version.ts';
import { writeArtifacts } from './files.ts';
import { failureFinding } from './lint.ts';
import type { ContractLocations } from './locations.ts';
import { writeReadme } from './readme-rules.ts';

export type Regeneration =
  | Extract<BuildResult, { ok: false }>
  | (Extract<BuildResult, { ok: true }> & { written: string[]; writeMs: number });

/** Builds everything, then writes only if every step succeeded. */
export async function regenerate(locations: ContractLocations): Promise<Regeneration> {
  const result = await buildArtifacts(locations);
  if (!result.ok) return result;
  const started = performance.now();
  try {
    const written = await writeArtifacts(result.artifacts, locations.outDir);
    if (await writeReadme(locations, result.document)) written.push('../README.md');
    if (await writeClientVersion(locations, result.document)) written.push('../client/package.json');
    return { ...result, written, writeMs: performance.now() - started };
  } catch (error) {
    return { ok: false, failedStep: 'write', findings: [failureFinding('write', error)], timings: result.timings };
  }
}
