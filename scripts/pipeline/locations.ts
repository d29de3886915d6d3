import path from 'node:path';

/** Where the pipeline reads the contract and writes its outputs. Every path is absolute. */
export interface ContractLocations {
  /** Findings and messages name files relative to this directory. */
  root: string;
  contract: string;
  lintConfig: string;
  sourceDir: string;
  outDir: string;
  /** Holds a section written from the contract (the rate-limit table). */
  readme: string;
  /** The manifest of the client package, whose version is the contract's (client-version.ts). */
  clientManifest: string;
}

/** The project's layout under `root`; tests pass a temporary copy of the repository. */
export function contractLocations(root: string = process.cwd()): ContractLocations {
  const absoluteRoot = path.resolve(root);
  return {
    root: absoluteRoot,
    contract: path.join(absoluteRoot, 'openapi', 'openapi.yaml'),
    lintConfig: path.join(absoluteRoot, 'redocly.yaml'),
    sourceDir: path.join(absoluteRoot, 'openapi'),
    outDir: path.join(absoluteRoot, 'generated'),
    readme: path.join(absoluteRoot, 'README.md'),
    clientManifest: path.join(absoluteRoot, 'client', 'package.json'),
  };
}

/** A path as people read it in messages: relative to the root, with forward slashes. */
export function displayPath(locations: ContractLocations, file: string): string {
  const relative = path.relative(locations.root, file);
  return (relative.startsWith('..') ? file : relative).split(path.sep).join('/');
}
