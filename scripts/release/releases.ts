// The contract a diff starts from: a release (release-files.ts), or a bundled contract file.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseYaml } from '@redocly/openapi-core';
import type { OpenApiDocument } from '../../contract/document.ts';
import type { ContractLocations } from '../pipeline/locations.ts';
import { listReleases } from './release-files.ts';
import { parseVersion } from './version.ts';

/** A contract to compare with: a release, or any bundled contract file. */
export interface BaseContract {
  /** For people: `release 1.0.0`, or the file's path. */
  label: string;
  document: OpenApiDocument;
}

/**
 * The contract `npm run diff` compares with: the latest release, or `base` when given, a release
 * version (`1.0.0`) or the path of a bundled contract (JSON or YAML).
 */
export async function readBase(locations: ContractLocations, base?: string): Promise<BaseContract> {
  const releases = await listReleases(locations);
  const release = base === undefined ? releases.at(-1) : releases.find((candidate) => candidate.name === base);
  if (release !== undefined) {
    return { label: `release ${release.name}`, document: await readContractFile(release.file) };
  }
  if (base === undefined) throw new Error('There is no release in releases/ to compare with; pass --base <file>.');
  if (parseVersion(base) !== undefined) {
    const known = releases.map((candidate) => candidate.name).join(', ') || 'none';
    throw new Error(`There is no release ${base} in releases/ (released: ${known}).`);
  }
  return { label: base, document: await readContractFile(path.resolve(locations.root, base)) };
}

async function readContractFile(file: string): Promise<OpenApiDocument> {
  const document = parseYaml(await readFile(file, 'utf8')) as OpenApiDocument;
  if (typeof document?.info?.version !== 'string')
    throw new Error(`${file} is not an OpenAPI contract with info.version.`);
  return document;
}
