// What the docs' console knows of each operation, read from the contract when the docs are built
// and carried in the page as JSON: how to address it, its parameters and its body at their
// examples, and where Redoc shows it.

import { Contract } from '../../../contract/contract.ts';
import { type JsonObject, type OpenApiDocument, resolveRef } from '../../../contract/document.ts';
import { documentedItems, parameterExample, requestBodyExample } from '../code-samples.ts';

interface ConsoleParameter {
  name: string;
  in: string;
  required: boolean;
  /** The parameter's example, as the reader would type it; empty when it has none. */
  example: string;
}

export interface ConsoleOperation {
  operationId: string;
  method: string;
  /** As the service serves it: `/v1/pets/{petId}`, `/healthz`. */
  servedPath: string;
  /** Redoc's section of the operation: `/<tag>/<operationid>`. */
  sectionId: string;
  needsKey: boolean;
  parameters: ConsoleParameter[];
  /** The first example of the JSON request body, indented; absent when the operation takes none. */
  body?: string;
  /** The media type the body is sent as (`application/merge-patch+json` for a change). */
  bodyMediaType?: string;
}

export interface ConsoleData {
  /** The path the API's servers share (`/v1`): the reader names a server by its address with it. */
  basePath: string;
  /** The contract's first server, as the reader's default. */
  server: string;
  operations: ConsoleOperation[];
}

export function consoleData(document: OpenApiDocument): ConsoleData {
  const contract = new Contract(document);
  const items = documentedItems(document);
  const [first] = document.servers ?? [];
  const server =
    first?.url.replace(
      /\{([^}]+)\}/g,
      (placeholder, name: string) => first.variables?.[name]?.default ?? placeholder,
    ) ?? contract.basePath;
  return {
    basePath: contract.basePath,
    server,
    operations: contract.operations.map((operation) => {
      const tag = String((operation.definition.tags as string[] | undefined)?.[0] ?? '');
      const declared = [
        ...((resolveRef<JsonObject>(document, document.paths?.[operation.path]).parameters as unknown[]) ?? []),
        ...((operation.definition.parameters as unknown[] | undefined) ?? []),
      ].map((node) => resolveRef<JsonObject>(document, node));
      const body = requestBodyExample(document, operation.definition);
      const item = items.get(operation.operationId);
      return {
        operationId: operation.operationId,
        method: operation.method,
        servedPath: operation.servedPath,
        sectionId: `/${slug(tag)}/${operation.operationId.toLowerCase()}`,
        needsKey: !operation.isPublic,
        parameters: operation.parameters.map((parameter) => {
          const found = declared.find((candidate) => candidate.name === parameter.name);
          const example =
            parameter.name === item?.parameter
              ? item.id
              : found === undefined
                ? undefined
                : parameterExample(document, found);
          return {
            name: parameter.name,
            in: parameter.in,
            required: parameter.required,
            example: example === undefined ? '' : String(example),
          };
        }),
        ...(body !== undefined && { body: JSON.stringify(body.value, null, 2), bodyMediaType: body.mediaType }),
      };
    }),
  };
}

/** Redoc's slug of a tag's name in its section ids. */
function slug(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
