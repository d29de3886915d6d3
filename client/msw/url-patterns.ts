// Contract paths as MSW's URL patterns: `{petId}` becomes `:petId`, at any origin or at one.

/** `/v1/pets/{petId}` at any origin: `*\/v1/pets/:petId`. */
export function anyOriginPattern(servedPath: string): string {
  return `*${routePattern(servedPath)}`;
}

/** `/v1/pets/{petId}` at `origin` (`https://api.example.com`), or at any origin when undefined. */
export function patternAt(origin: string | undefined, servedPath: string): string {
  return origin === undefined ? anyOriginPattern(servedPath) : `${origin}${routePattern(servedPath)}`;
}

function routePattern(servedPath: string): string {
  return servedPath.replace(/\{([^}]+)\}/g, ':$1');
}
