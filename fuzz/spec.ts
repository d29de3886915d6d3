// The document the fuzzer reads: any OpenAPI 3.1 file (JSON or YAML, its `$ref`s local, as a
// bundler leaves them), made into the contract module's `Contract` with the base URL given
// standing for the document's servers, so every operation is addressed where that server is.
import { readFile } from 'node:fs/promises';
import { load } from 'js-yaml';
import { Contract } from '../contract/contract.ts';
import type { OpenApiDocument } from '../contract/document.ts';
import { UsageError } from '../core/errors.ts';

export async function readDocument(file: string): Promise<OpenApiDocument> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`Cannot read the document ${file}: ${(error as Error).message}`);
  }
  let document: unknown;
  try {
    document = /\.json$/i.test(file) ? JSON.parse(text) : load(text);
  } catch (error) {
    throw new UsageError(`${file} is neither JSON nor YAML: ${(error as Error).message}`);
  }
  const { openapi, paths } = (document ?? {}) as { openapi?: unknown; paths?: unknown };
  if (typeof openapi !== 'string' || !openapi.startsWith('3.1') || typeof paths !== 'object' || paths === null)
    throw new UsageError(`${file} is not an OpenAPI 3.1 document (it needs "openapi": "3.1.x" and "paths").`);
  return document as OpenApiDocument;
}

/** Where the fuzzer sends: the base URL's origin, and the `Contract` whose served paths sit under it. */
export interface FuzzTarget {
  origin: string;
  contract: Contract;
}

/**
 * `baseUrl` stands for the document's servers (`http://127.0.0.1:3000/v1` for
 * `https://api.example.com/v1`): operations are served under its path. A path item with servers
 * of its own (a health probe beside the versioned API) keeps their path, on the base URL's origin.
 */
export function targetOf(document: OpenApiDocument, baseUrl: string): FuzzTarget {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`--base-url ${baseUrl} is not a URL (like http://127.0.0.1:3000/v1).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--base-url ${baseUrl} is not an http or https URL.`);
  if (url.search !== '' || url.hash !== '')
    throw new UsageError(`--base-url ${baseUrl} has a query or fragment; give the server URL only.`);
  const basePath = url.pathname.replace(/\/+$/, '');
  const contracts = served.get(document) ?? new Map<string, Contract>();
  served.set(document, contracts);
  // A shallow copy: the document's nodes stay the same objects, which the validators key on.
  const contract = contracts.get(basePath) ?? new Contract({ ...document, servers: [{ url: basePath || '/' }] });
  contracts.set(basePath, contract);
  return { origin: url.origin, contract };
}

/**
 * The contract of each document under each base path, made once: the contract module keeps its
 * compiled validators with it, so runs of the same document (the tests' many) compile them once.
 */
const served = new WeakMap<OpenApiDocument, Map<string, Contract>>();
