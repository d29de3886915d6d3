/** What every API key starts with, so that a key is recognised wherever it turns up (a log, a leak scan). */
export const API_KEY_PREFIX = 'ask_';

/** What follows the prefix: base64url characters, 43 for a generated key, 16 to 252 for a chosen one. */
const KEY_BODY = '[A-Za-z0-9_-]';

/** The shape of a key the service issues, whole. */
export const WELL_FORMED_KEY = new RegExp(`^${API_KEY_PREFIX}${KEY_BODY}{16,252}$`);

/** Anything shaped like a key inside a text (a path, a message), however long. */
const KEY_SHAPED = new RegExp(`\\b${API_KEY_PREFIX}${KEY_BODY}{16,}`, 'g');

/** `text` with anything shaped like a key replaced, for what is logged. */
export function redactKeys(text: string): string {
  // Nearly every text holds no key (a log line per request): looking for the prefix alone costs a
  // fraction of running the pattern over it.
  return text.includes(API_KEY_PREFIX) ? text.replace(KEY_SHAPED, `${API_KEY_PREFIX}[redacted]`) : text;
}
