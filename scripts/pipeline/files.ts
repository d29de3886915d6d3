import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Artifact } from './build.ts';

export interface Drift {
  name: string;
  problem: 'stale' | 'missing' | 'unexpected';
}

/**
 * Writes the artifacts that differ from what is on disk, each through a temporary file and a
 * rename so that a reader (the server, Prism, an editor) never sees half a file. Unchanged files
 * keep their modification time, so watchers downstream are not woken for nothing.
 * Returns the names it wrote.
 */
export async function writeArtifacts(artifacts: Artifact[], outDir: string): Promise<string[]> {
  await mkdir(outDir, { recursive: true });
  const written: string[] = [];
  for (const artifact of artifacts) {
    const target = path.join(outDir, artifact.name);
    if ((await readIfPresent(target)) === artifact.content) continue;
    const temporary = path.join(outDir, `.${artifact.name}.${process.pid}.tmp`);
    try {
      await writeFile(temporary, artifact.content, 'utf8');
      await rename(temporary, target);
    } finally {
      await rm(temporary, { force: true });
    }
    written.push(artifact.name);
  }
  return written;
}

/**
 * Compares the artifacts with `outDir` without writing anything: every file that is out of date,
 * absent, or not produced by the pipeline at all. Dotfiles (`.gitkeep`, editor droppings) are ignored.
 */
export async function findDrift(artifacts: Artifact[], outDir: string): Promise<Drift[]> {
  const drift: Drift[] = [];
  for (const artifact of artifacts) {
    const current = await readIfPresent(path.join(outDir, artifact.name));
    if (current === undefined) drift.push({ name: artifact.name, problem: 'missing' });
    else if (current !== artifact.content) drift.push({ name: artifact.name, problem: 'stale' });
  }
  for (const name of await findUnexpected(
    artifacts.map((artifact) => artifact.name),
    outDir,
  ))
    drift.push({ name, problem: 'unexpected' });
  return drift.sort((a, b) => a.name.localeCompare(b.name));
}

/** Names present in `outDir` that the pipeline does not produce (left alone by `writeArtifacts`). */
export async function findUnexpected(expectedNames: readonly string[], outDir: string): Promise<string[]> {
  const expected = new Set(expectedNames);
  return (await listIfPresent(outDir)).filter((entry) => !entry.startsWith('.') && !expected.has(entry)).sort();
}

async function readIfPresent(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
}

async function listIfPresent(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
