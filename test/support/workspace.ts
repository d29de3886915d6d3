// A throw-away copy of the parts of the repository the pipeline reads and writes, so tests can
// break the contract and the outputs without touching the real openapi/ and generated/.
import { execFile } from 'node:child_process';
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseYaml, stringifyYaml } from '@redocly/openapi-core';
import type { Artifact } from '../../scripts/pipeline/build.ts';
import { writeArtifacts } from '../../scripts/pipeline/files.ts';
import { generateCommand } from '../../scripts/pipeline/generate-command.ts';
import { type ContractLocations, contractLocations } from '../../scripts/pipeline/locations.ts';
import { regenerate } from '../../scripts/pipeline/regenerate.ts';
import { copyRepository, REPOSITORY_ROOT } from '../../support/repository-copy.ts';

export const repoRoot = REPOSITORY_ROOT;

// biome-ignore lint/suspicious/noExplicitAny: a contract file is free-form YAML; tests reach into it by the paths they know.
export type YamlMap = Record<string, any>;

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface Workspace {
  root: string;
  locations: ContractLocations;
  path(relative: string): string;
  read(relative: string): Promise<string>;
  write(relative: string, content: string): Promise<void>;
  /** Rewrites a YAML file through `change`, which mutates the parsed document. */
  editYaml(relative: string, change: (document: YamlMap) => void): Promise<string>;
  /** Content and modification time of every file in generated/. */
  snapshotGenerated(): Promise<Record<string, { content: string; mtimeMs: number }>>;
  npmRun(script: string, ...args: string[]): Promise<CommandResult>;
  /**
   * `npm run generate -- ...args` in this process, where the tools are loaded already: what the
   * script prints and exits with, without starting npm and Node for each call.
   */
  generate(...args: string[]): Promise<CommandResult>;
  dispose(): Promise<void>;
}

// The docs' console bundles the client package's mock, with the app core it runs; the docs build
// writes the compressed forms the server serves, with the server's own compression.
const COPIED = [
  'openapi',
  'redocly.yaml',
  'scripts',
  'contract',
  'client',
  'core',
  'mock',
  'node',
  'package.json',
  'tsconfig.json',
];

/** A copy of the contract and the pipeline, with the generated/ the pipeline builds from it. */
export async function createWorkspace(): Promise<Workspace> {
  const { root, remove } = await copyRepository(COPIED, 'animal-store-pipeline-');
  const locations = contractLocations(root);
  await writeArtifacts(await baselineArtifacts(locations), locations.outDir);

  const resolve = (relative: string): string => path.join(root, relative);
  return {
    root,
    locations,
    path: resolve,
    read: (relative) => readFile(resolve(relative), 'utf8'),
    write: (relative, content) => writeFile(resolve(relative), content, 'utf8'),
    async editYaml(relative, change) {
      const document = parseYaml(await readFile(resolve(relative), 'utf8')) as YamlMap;
      change(document);
      const content = stringifyYaml(document, { lineWidth: -1 });
      await writeFile(resolve(relative), content, 'utf8');
      return content;
    },
    async snapshotGenerated() {
      const snapshot: Record<string, { content: string; mtimeMs: number }> = {};
      for (const name of await readdir(locations.outDir)) {
        const file = path.join(locations.outDir, name);
        snapshot[name] = { content: await readFile(file, 'utf8'), mtimeMs: (await stat(file)).mtimeMs };
      }
      return snapshot;
    },
    async generate(...args) {
      const stdout: string[] = [];
      const stderr: string[] = [];
      const code = await generateCommand(args, locations, {
        log: (line) => stdout.push(`${line}\n`),
        warn: (line) => stderr.push(`${line}\n`),
        error: (line) => stderr.push(`${line}\n`),
      });
      return { code, stdout: stdout.join(''), stderr: stderr.join('') };
    },
    npmRun: (script, ...args) => run('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], root),
    dispose: remove,
  };
}

let baseline: Promise<Artifact[]> | undefined;

/**
 * What the pipeline builds from the repository's contract: built once per test worker, in the
 * first copy, since every copy starts from the same files.
 */
function baselineArtifacts(locations: ContractLocations): Promise<Artifact[]> {
  baseline ??= regenerate(locations).then((result) => {
    if (!result.ok) throw new Error(`the repository's contract does not build: ${JSON.stringify(result.findings)}`);
    return result.artifacts;
  });
  return baseline;
}

export function run(command: string, args: string[], cwd: string): Promise<CommandResult> {
  return new Promise((resolve) => {
    execFile(command, args, { cwd, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

/** 1-based line and column of the first occurrence of `text`, as an editor shows it. */
export function positionOf(content: string, text: string): { line: number; col: number } {
  const index = content.indexOf(text);
  if (index < 0) throw new Error(`"${text}" not found`);
  const before = content.slice(0, index).split('\n');
  return { line: before.length, col: (before.at(-1) ?? '').length + 1 };
}
