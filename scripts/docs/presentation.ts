// The page's own copy of a contract, adjusted for how Redoc shows it; the contract and the
// download copies stay as they are.
//  - A server whose whole URL is a variable (`{base_url}`) would show as `{base_url}`: the page
//    shows each variable at its default, the address a reader can use.
//  - Redoc shows a server's description as plain text, so Markdown code marks would show as
//    literal backticks: the page drops them.
//  - A tag with no operations (`store`, not designed in 1.0.0) would be an empty entry in the
//    navigation: the page leaves it out.
//  - Redoc does not read `x-stability`: an experimental or beta operation gets the `x-badges`
//    Redoc shows beside its title and its entry in the navigation.
import { type JsonObject, operationObjects, type ServerObject } from '../../contract/readers.ts';
import { withOperationIds } from './operation-ids.ts';

/** The badge of each stability marker, in one of Redoc's named colours. */
const STABILITY_BADGES: Readonly<Record<string, { name: string; color: string }>> = {
  experimental: { name: 'Experimental', color: 'orange' },
  beta: { name: 'Beta', color: 'blue' },
};

export function forThePage<T extends object>(document: T): T {
  const copy = withOperationIds(document) as T & { servers?: ServerObject[]; tags?: Array<{ name: string }> };
  for (const { definition } of operationObjects(copy)) {
    const badge = STABILITY_BADGES[String(definition['x-stability'])];
    if (badge === undefined) continue;
    const badges = Array.isArray(definition['x-badges']) ? definition['x-badges'] : [];
    definition['x-badges'] = [...badges, badge];
  }
  if (copy.servers) copy.servers = copy.servers.map(readableServer);
  for (const pathItem of Object.values((copy as { paths?: Record<string, JsonObject> }).paths ?? {})) {
    if (Array.isArray(pathItem.servers)) pathItem.servers = (pathItem.servers as ServerObject[]).map(readableServer);
  }
  const used = new Set(
    operationObjects(copy).flatMap(({ definition }) => (definition.tags as string[] | undefined) ?? []),
  );
  if (copy.tags) copy.tags = copy.tags.filter((tag) => used.has(tag.name));
  return copy;
}

function readableServer(server: ServerObject & { description?: string }): ServerObject {
  const { variables, ...rest } = server;
  const url = server.url.replace(
    /\{([^}]+)\}/g,
    (placeholder, name: string) => variables?.[name]?.default ?? placeholder,
  );
  const description = server.description?.replace(/`([^`]*)`/g, '$1');
  return { ...rest, url, ...(description !== undefined && { description }) };
}
