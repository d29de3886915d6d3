// The contract pipeline as functions, for `npm run generate`, `npm run docs` and the mock's
// in-process watch loop: lint, bundle and type `openapi/` into `generated/`.

export { type Artifact, type BuildResult, buildArtifacts, type StepTiming } from './pipeline/build.ts';
export { type Drift, findDrift, findUnexpected, writeArtifacts } from './pipeline/files.ts';
export { type Finding, formatFinding, lintContract } from './pipeline/lint.ts';
export { type ContractLocations, contractLocations, displayPath } from './pipeline/locations.ts';
export { staleReadmeSections } from './pipeline/readme-rules.ts';
export { type Regeneration, regenerate } from './pipeline/regenerate.ts';
export { type ContractWatcher, type WatchOptions, type WatchRegeneration, watchContract } from './pipeline/watch.ts';
