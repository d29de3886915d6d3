// JSON pointers (RFC 6901) into a bundled contract, and the walk that turns a path through the
// contract as a client sees it (every `$ref` followed, as api-smart-diff reports paths) into the
// pointer of the place the bundle writes it (`#/components/schemas/Pet/properties/status`).

export type PathSegment = string | number;

export function toPointer(segments: readonly PathSegment[]): string {
  return `#${segments.map((segment) => `/${String(segment).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')}`;
}

export function fromPointer(pointer: string): string[] {
  const body = pointer.replace(/^#/, '');
  if (body === '') return [];
  return body
    .slice(1)
    .split('/')
    .map((segment) => decodeURIComponent(segment).replaceAll('~1', '/').replaceAll('~0', '~'));
}

export interface Located {
  /** Where the bundle writes the deepest node of the path that exists, as segments. */
  segments: string[];
  /** False when the path leaves the document before its end (a removed node, say). */
  complete: boolean;
}

/**
 * Follows `path` through `document`, jumping to the target of every local `$ref` it passes
 * through. A `$ref` at the very end is not followed: the change is where it is used.
 */
export function locateInBundle(document: unknown, path: readonly PathSegment[]): Located {
  let node: unknown = document;
  let segments: string[] = [];
  for (const [index, segment] of path.entries()) {
    // api-smart-diff reads a `$ref` with keywords beside it as `allOf: [target, keywords]`.
    if (segment === 'allOf' && childOf(node, 'allOf') === undefined && refTarget(node) !== undefined) continue;
    if (path[index - 1] === 'allOf' && childOf(node, 'allOf') === undefined && refTarget(node) !== undefined) {
      if (segment === 0) {
        segments = fromPointer(refTarget(node) as string);
        node = segments.reduce<unknown>((parent, key) => childOf(parent, key), document);
      }
      continue;
    }
    const target = childOf(node, String(segment)) === undefined ? refTarget(node) : undefined;
    if (target !== undefined) {
      segments = fromPointer(target);
      node = segments.reduce<unknown>((parent, key) => childOf(parent, key), document);
    }
    const child = childOf(node, String(segment));
    if (child === undefined) return { segments, complete: false };
    node = child;
    segments = [...segments, String(segment)];
  }
  return { segments, complete: true };
}

export function childOf(node: unknown, key: string): unknown {
  if (typeof node !== 'object' || node === null) return undefined;
  return (node as Record<string, unknown>)[key];
}

/** The pointer of a `$ref` node, when it is one; undefined otherwise. */
export function refTarget(node: unknown): string | undefined {
  const ref = childOf(node, '$ref');
  return typeof ref === 'string' ? ref : undefined;
}

/** The node at the end of `path`, its `$ref` followed; undefined when the path leaves the document. */
export function nodeAlong(document: unknown, path: readonly PathSegment[]): unknown {
  const { segments, complete } = locateInBundle(document, path);
  if (!complete) return undefined;
  const node = segments.reduce<unknown>((parent, key) => childOf(parent, key), document);
  const target = refTarget(node);
  return target === undefined
    ? node
    : fromPointer(target).reduce<unknown>((parent, key) => childOf(parent, key), document);
}
