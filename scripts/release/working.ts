// The working contract, bundled in memory from openapi/ exactly as `npm run generate` bundles it.
import type { OpenApiDocument } from '../../contract/document.ts';
import { type Artifact, buildArtifacts } from '../pipeline/build.ts';
import { formatFinding } from '../pipeline/lint.ts';
import { type ContractLocations, displayPath } from '../pipeline/locations.ts';

export type WorkingContract =
  | { ok: true; document: OpenApiDocument; artifacts: Artifact[] }
  | { ok: false; problem: string };

export async function buildWorkingContract(locations: ContractLocations): Promise<WorkingContract> {
  const built = await buildArtifacts(locations);
  if (!built.ok) {
    const findings = built.findings.map((finding) => `  ${formatFinding(locations, finding)}`);
    const contract = displayPath(locations, locations.sourceDir);
    return { ok: false, problem: [`${contract}/ does not pass ${built.failedStep}:`, ...findings].join('\n') };
  }
  return { ok: true, document: built.document as OpenApiDocument, artifacts: built.artifacts };
}
