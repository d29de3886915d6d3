import { ApiError } from './errors.ts';
import type { AppContext } from './http-types.ts';

// Fatal: a byte sequence that is not UTF-8 is refused instead of becoming U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of a request body received as bytes; 400 `malformed_json` naming what is wrong. */
export function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new ApiError(400, 'malformed_json', 'The request body is not valid UTF-8; send the JSON encoded as UTF-8.');
  }
  if (text.trim() === '') throw new ApiError(400, 'malformed_json', 'The request body is empty; send a JSON object.');
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ApiError(400, 'malformed_json', `The request body is not valid JSON: ${(error as Error).message}.`);
  }
}

export async function readJsonBody(c: AppContext): Promise<unknown> {
  return parseJsonBody(new Uint8Array(await c.req.arrayBuffer()));
}
