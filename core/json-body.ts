import { errors } from './errors.ts';
import type { AppContext } from './http-types.ts';

// Fatal: a byte sequence that is not UTF-8 is refused instead of becoming U+FFFD.
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The JSON value of a request body received as bytes; 400 `malformed_json` naming what is wrong. */
function parseJsonBody(bytes: Uint8Array): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw errors.bodyNotUtf8();
  }
  if (text.trim() === '') throw errors.bodyEmpty();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw errors.bodyNotJson();
  }
  const duplicate = duplicateKey(text);
  if (duplicate !== undefined) {
    // JSON.parse keeps the last; a proxy or firewall in front may keep the first, and would have
    // checked another request than the one carried out.
    const key = JSON.stringify(duplicate).slice(1, -1).slice(0, 100);
    throw errors.bodyKeyTwice(key);
  }
  return value;
}

/**
 * The first key that appears twice in one object of `text`, which JSON.parse accepted, compared
 * after decoding escapes (`"n\u0061me"` is `"name"`); undefined when every key is unique.
 */
function duplicateKey(text: string): string | undefined {
  // One entry per open object (its keys so far) or array (undefined).
  const open: Array<Set<string> | undefined> = [];
  let keyNext = false;
  for (let at = 0; at < text.length; at++) {
    const char = text[at];
    if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === '\\' ? 2 : 1;
      const keys = open.at(-1);
      if (keyNext && keys !== undefined) {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key)) return key;
        keys.add(key);
        keyNext = false;
      }
      at = end;
    } else if (char === '{') {
      open.push(new Set());
      keyNext = true;
    } else if (char === '[') {
      open.push(undefined);
      keyNext = false;
    } else if (char === '}' || char === ']') {
      open.pop();
      keyNext = false;
    } else if (char === ',') {
      keyNext = open.at(-1) !== undefined;
    }
  }
  return undefined;
}

export async function readJsonBody(c: AppContext): Promise<unknown> {
  return parseJsonBody(new Uint8Array(await c.req.arrayBuffer()));
}
