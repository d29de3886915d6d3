// JSON Merge Patch (RFC 7396, section 2): what a `PATCH` of `application/merge-patch+json` makes
// of a stored item. The contract's validator has refused a `null` where a field cannot be absent.

/** `target` with `patch` applied: each member of an object patch set (merged, for an object), or removed by `null`. */
export function mergePatch(target: unknown, patch: unknown): unknown {
  if (!isObject(patch)) return patch;
  const result: Record<string, unknown> = isObject(target) ? { ...target } : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
