// The client package (`@animal-store/client`, client/package.json) is the contract's typed client,
// so its version is the contract's `info.version`: `npm run generate` writes it there, `--check`
// fails while it says something else, and a release therefore leaves no package at the old version.
// Only the `version` line is rewritten; the rest of the manifest stays as its authors wrote it.
import { readFile, writeFile } from 'node:fs/promises';
import type { ContractLocations } from './locations.ts';

export interface ClientVersion {
  /** What client/package.json says. */
  stated: string;
  /** The contract's `info.version`. */
  expected: string;
}

async function readClientVersion(
  locations: ContractLocations,
  document: unknown,
): Promise<(ClientVersion & { manifest: string }) | undefined> {
  const manifest = await readFile(locations.clientManifest, 'utf8').catch(() => undefined);
  if (manifest === undefined) return undefined;
  const { version } = JSON.parse(manifest) as { version?: unknown };
  return { stated: String(version), expected: (document as { info: { version: string } }).info.version, manifest };
}

/** The client manifest's version when it is not `info.version`; undefined when it is, or there is no manifest. */
export async function staleClientVersion(
  locations: ContractLocations,
  document: unknown,
): Promise<ClientVersion | undefined> {
  const found = await readClientVersion(locations, document);
  return found === undefined || found.stated === found.expected
    ? undefined
    : { stated: found.stated, expected: found.expected };
}

/** Writes `info.version` into the client manifest when it states another; true when it wrote. */
export async function writeClientVersion(locations: ContractLocations, document: unknown): Promise<boolean> {
  const found = await readClientVersion(locations, document);
  if (found === undefined || found.stated === found.expected) return false;
  // The manifest's own `version` is its first: npm writes it before any dependency or script.
  const field = /("version"\s*:\s*)"[^"]*"/;
  if (!field.test(found.manifest)) throw new Error(`${locations.clientManifest} has no "version" to write.`);
  await writeFile(
    locations.clientManifest,
    found.manifest.replace(field, `$1${JSON.stringify(found.expected)}`),
    'utf8',
  );
  return true;
}
