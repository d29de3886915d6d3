// The contract pipeline as functions, for `npm run generate`, `npm run docs` and the mock's
// in-process watch loop: lint, bundle and type `openapi/` into `generated/`.
export { contractLocations, displayPath, type ContractLocations } from './pipeline/locations.ts';
export { formatFinding, lintContract, type Finding } from './pipeline/lint.ts';
export { buildArtifacts, type Artifact, type BuildResult, type StepTiming } from './pipeline/build.ts';
export { findDrift, findUnexpected, writeArtifacts, type Drift } from './pipeline/files.ts';
export { regenerate, type Regeneration } from './pipeline/regenerate.ts';
export { readmeIsStale } from './pipeline/readme-rules.ts';
export { watchContract, type ContractWatcher, type WatchOptions, type WatchRegeneration } from './pipeline/watch.ts';
