// The media types of the bodies the contract module reads and validates: JSON, written
// `application/json` or as a structured type built on it (RFC 6839: `application/merge-patch+json`,
// `application/problem+json`). A request body of any other type could be neither parsed nor
// checked against its schema, so `npm run generate` refuses a contract that declares one.
import { type JsonObject, operationObjects, resolveRef } from './document.ts';

/** Whether bodies of `mediaType` (lower case, without parameters) are JSON the module reads. */
export function isJsonMediaType(mediaType: string): boolean {
  return /^application\/(?:[\w.-]+\+)?json$/.test(mediaType);
}

/** The media type of a `Content-Type` value: lower case, without its parameters; empty when absent. */
export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/**
 * One sentence for each request body media type `document` declares that the contract module
 * cannot read, naming the operation and the type: what `npm run generate` refuses.
 */
export function unreadableRequestMediaTypes(document: object): string[] {
  return operationObjects(document).flatMap(({ path, method, definition }) => {
    if (definition.requestBody === undefined) return [];
    const content = resolveRef<{ content?: JsonObject }>(document, definition.requestBody).content ?? {};
    const name = typeof definition.operationId === 'string' ? definition.operationId : `${method} ${path}`;
    return Object.keys(content)
      .filter((mediaType) => !isJsonMediaType(mediaType.toLowerCase()))
      .map(
        (mediaType) =>
          `${name} (${method} ${path}) takes a request body of type ${mediaType}, which the service cannot read or validate: declare its body as application/json or a +json type (application/merge-patch+json).`,
      );
  });
}

/**
 * The media type each operation that takes a body is sent as by a client, by `METHOD path`
 * (`PATCH /pets/{petId}`): `application/json` where it is declared, else the first `+json` type.
 */
export function requestMediaTypes(document: object): Record<string, string> {
  return Object.fromEntries(
    operationObjects(document).flatMap(({ path, method, definition }) => {
      if (definition.requestBody === undefined) return [];
      const content = resolveRef<{ content?: JsonObject }>(document, definition.requestBody).content ?? {};
      const declared = Object.keys(content).map((mediaType) => mediaType.toLowerCase());
      const preferred = declared.includes('application/json') ? 'application/json' : declared.find(isJsonMediaType);
      return preferred === undefined ? [] : [[`${method} ${path}`, preferred]];
    }),
  );
}
