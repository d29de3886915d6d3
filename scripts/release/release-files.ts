// Where the released contracts live: releases/<version>/openapi.json, the bundle as `npm run
// generate` wrote it when the version was released, so a fresh clone has them all. Kept free of
// heavy imports: `npm start` reads it to decide whether the docs are current.
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { ContractLocations } from '../pipeline/locations.ts';
import { compareVersions, parseVersion, type Version } from './version.ts';

export interface Release {
  version: Version;
  /** `1.0.0`, as the folder is named. */
  name: string;
  file: string;
}

export const RELEASED_CONTRACT = 'openapi.json';

function releasesDir(locations: ContractLocations): string {
  return path.join(locations.root, 'releases');
}

export function releaseFile(locations: ContractLocations, name: string): string {
  return path.join(releasesDir(locations), name, RELEASED_CONTRACT);
}

/** Every release, oldest first. */
export async function listReleases(locations: ContractLocations): Promise<Release[]> {
  const entries = await readdir(releasesDir(locations)).catch(() => [] as string[]);
  return entries
    .flatMap((name) => {
      const version = parseVersion(name);
      return version ? [{ version, name, file: releaseFile(locations, name) }] : [];
    })
    .sort((a, b) => compareVersions(a.version, b.version));
}
