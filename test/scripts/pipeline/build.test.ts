import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseYaml } from '@redocly/openapi-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Artifact, buildArtifacts } from '../../../scripts/pipeline/build.ts';
import {
  bodySize,
  ERROR_CODES_MARKER,
  MAX_BODY_BYTES_MARKER,
  RULES_PROSE_MARKER,
  withRulesProse,
} from '../../../scripts/pipeline/rules-prose.ts';
import { createWorkspace, repoRoot, run, type Workspace } from '../../support/workspace.ts';

const redoclyCli = path.join(repoRoot, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js');

describe('buildArtifacts', { timeout: 60_000 }, () => {
  let first: Workspace;
  let second: Workspace;
  let artifacts: Map<string, string>;
  beforeAll(async () => {
    [first, second] = await Promise.all([createWorkspace(), createWorkspace()]);
    artifacts = byName(await build(first));
  });
  afterAll(async () => {
    await Promise.all([first.dispose(), second.dispose()]);
  });

  it('produces byte-identical outputs on every run and from any directory', async () => {
    expect(byName(await build(first))).toEqual(artifacts);
    expect(byName(await build(second))).toEqual(artifacts);
  });

  it('ends every output with one newline and uses no carriage returns', () => {
    for (const [name, content] of artifacts) {
      expect(content, name).toMatch(/[^\n]\n$/);
      expect(content, name).not.toContain('\r');
    }
  });

  it('keeps each component under the name of its file in openapi/components/', async () => {
    const bundled = JSON.parse(artifacts.get('openapi.json') ?? '') as { components: Record<string, object> };
    const componentsDir = path.join(first.root, 'openapi', 'components');
    for (const kind of await readdir(componentsDir)) {
      const fileNames = (await readdir(path.join(componentsDir, kind))).map((file) => path.basename(file, '.yaml'));
      expect(Object.keys(bundled.components[kind] ?? {}).sort(), kind).toEqual(fileNames.sort());
    }
  });

  it('writes the same document as YAML and as JSON', () => {
    expect(parseYaml(artifacts.get('openapi.yaml') ?? '')).toEqual(JSON.parse(artifacts.get('openapi.json') ?? ''));
  });

  const cliBundle = async (format: 'yaml' | 'json') => {
    const output = path.join(first.root, `cli-bundle.${format}`);
    const cli = await run(process.execPath, [redoclyCli, 'bundle', 'openapi/openapi.yaml', '-o', output], first.root);
    expect(cli.code, cli.stderr).toBe(0);
    return readFile(output, 'utf8');
  };

  it('bundles exactly as `redocly bundle -o openapi.json` of the pinned CLI, with the rules prose in place of its marker', async () => {
    const theirs = withRulesProse(
      JSON.parse(await cliBundle('json')) as { info: { version: string; description?: string } },
    );
    expect((artifacts.get('openapi.json') ?? '').trimEnd()).toBe(JSON.stringify(theirs, null, 2));
  });

  it('bundles the document `redocly bundle -o openapi.yaml` of the pinned CLI does, with the rules prose in place of its marker', async () => {
    const theirs = withRulesProse(
      parseYaml(await cliBundle('yaml')) as { info: { version: string; description?: string } },
    );
    expect(parseYaml(artifacts.get('openapi.yaml') ?? '')).toEqual(theirs);
  });

  it('writes the rate-limit rules into the description where the marker stands', () => {
    const description = (JSON.parse(artifacts.get('openapi.json') ?? '') as { info: { description: string } }).info
      .description;
    expect(description).not.toContain(RULES_PROSE_MARKER);
    expect(description).toContain('| Plan | Requests per minute | Requests per day |');
  });

  it('writes the table of error codes into the description where its marker stands', () => {
    const description = (JSON.parse(artifacts.get('openapi.json') ?? '') as { info: { description: string } }).info
      .description;
    expect(description).not.toContain(ERROR_CODES_MARKER);
    expect(description).toContain('| Code | Status | Meaning |');
  });

  it("writes each operation's body limit into its description where its marker stands", () => {
    const json = artifacts.get('openapi.json') ?? '';
    const createPet = (JSON.parse(json) as { paths: Record<string, Record<string, Record<string, unknown>>> }).paths[
      '/pets'
    ]?.post;
    expect(json).not.toContain(MAX_BODY_BYTES_MARKER);
    expect(createPet?.description).toContain(`at most ${bodySize(createPet?.['x-max-body-bytes'] as number)}`);
    expect(artifacts.get('openapi.ts')).not.toContain(MAX_BODY_BYTES_MARKER);
  });
});

async function build(workspace: Workspace): Promise<Artifact[]> {
  const result = await buildArtifacts(workspace.locations);
  if (!result.ok) throw new Error(`build failed: ${JSON.stringify(result.findings)}`);
  return result.artifacts;
}

function byName(artifacts: Artifact[]): Map<string, string> {
  return new Map(artifacts.map((artifact) => [artifact.name, artifact.content]));
}
