// Builds the docs only when they are missing or stale; when they are current it returns without
// loading the pipeline, so callers that run often (`npm start`, `npm run docs:serve`) stay fast.
import type { ContractLocations } from '../pipeline/locations.ts';
import { docsStatus } from './status.ts';

export type DocsEnsured = { outcome: 'current' | 'built' } | { outcome: 'failed'; problem: string };

export async function ensureDocs(
  locations: ContractLocations,
  print: (line: string) => void = console.log,
): Promise<DocsEnsured> {
  const status = await docsStatus(locations);
  if (status.state === 'current') return { outcome: 'current' };
  print(`docs: ${status.reason}; building dist/docs/ (npm run docs)`);
  try {
    const { buildDocs } = await import('./build.ts');
    const built = await buildDocs(locations, print);
    return built.ok ? { outcome: 'built' } : { outcome: 'failed', problem: built.problem };
  } catch (error) {
    // Without the dev dependencies (an install with --omit=dev) Redocly cannot even be loaded.
    return {
      outcome: 'failed',
      problem: `docs: could not build the docs: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
