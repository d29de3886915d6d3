// Where a node of the bundled contract is written under openapi/, as `file:line`, so a change the
// gate reports can be opened in an editor. The walk starts at openapi/openapi.yaml and follows
// the source's own `$ref`s from file to file. A component the root does not list inline is read
// from its own file: the bundler names components after them (`components/schemas/Pet.yaml`
// becomes `#/components/schemas/Pet`), as openapi/README.md lays the folder out.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { getLineColLocation, parseYaml, Source } from '@redocly/openapi-core';
import { type ContractLocations, displayPath } from '../pipeline/locations.ts';
import { childOf, fromPointer, refTarget, toPointer } from './pointer.ts';

export interface SourceLine {
  /** Relative to the repository root: `openapi/components/schemas/Pet.yaml`. */
  file: string;
  line: number;
}

interface SourceFile {
  source: Source;
  parsed: unknown;
}

/** A function from a bundle's pointer to the source line of the deepest part of it that exists. */
export function sourceLocator(locations: ContractLocations): (bundlePointer: string) => SourceLine {
  const files = new Map<string, SourceFile>();
  const load = (file: string): SourceFile => {
    let loaded = files.get(file);
    if (loaded === undefined) {
      const body = readFileSync(file, 'utf8');
      loaded = { source: new Source(file, body), parsed: parseYaml(body) };
      files.set(file, loaded);
    }
    return loaded;
  };

  return (bundlePointer) => {
    const segments = fromPointer(bundlePointer);
    let file = locations.contract;
    let inFile: string[] = [];
    let remaining = segments;
    const [first, kind, name] = segments;
    const root = load(file).parsed;
    if (first === 'components' && kind && name && childOf(childOf(childOf(root, first), kind), name) === undefined) {
      const own = path.join(locations.sourceDir, 'components', kind, `${name}.yaml`);
      if (existsSync(own)) {
        file = own;
        remaining = segments.slice(3);
      }
    }
    let node = load(file).parsed;
    for (const segment of remaining) {
      // A keyword beside a `$ref` (a `default`, say) is written where the `$ref` is.
      const ref = childOf(node, segment) === undefined ? refTarget(node) : undefined;
      if (ref !== undefined) {
        const [target = '', fragment = ''] = ref.split('#');
        if (target !== '') file = path.resolve(path.dirname(file), target);
        inFile = fromPointer(fragment);
        node = inFile.reduce<unknown>((parent, key) => childOf(parent, key), load(file).parsed);
      }
      const child = childOf(node, segment);
      if (child === undefined) break;
      node = child;
      inFile = [...inFile, segment];
    }
    const { start } = getLineColLocation({ source: load(file).source, pointer: toPointer(inFile), reportOnKey: true });
    return { file: displayPath(locations, file), line: start.line };
  };
}
