// A request as the fuzzer builds it, sends it, and prints it back as a `curl` command line that
// sends the same bytes to the same URL.

/** How a request carries the key: the one given, none at all, or a garbled one (the key with a character no key holds). */
export type Credentials = 'key' | 'none' | 'garbled';

/** Where a request's values came from: what tells a value chosen to collide with an earlier run's from a fresh one. */
export type Origin = 'example' | 'coverage' | 'random' | 'stateful';

export interface FuzzRequest {
  operationId: string;
  method: string;
  /** The path as the service serves it, with its parameters filled in: `/v1/pets/42`. */
  path: string;
  /** Path parameters as text, by name, before encoding. */
  pathParams: Record<string, string>;
  query: Record<string, string>;
  /** Header parameters and any header a case sets itself (`Content-Type`). */
  headers: Record<string, string>;
  credentials: Credentials;
  /** The body's text, byte for byte, with the Content-Type it is sent with (none when undefined). */
  body?: { text: string; contentType: string | undefined };
  /** The body as parsed JSON, when its text is JSON. */
  json?: unknown;
  origin: Origin;
  /** What the request tries, in words: `the example NewPetMinimal`, `body field name at the maxLength 100`. */
  note: string;
}

/** The answer as read off the wire. */
export interface Answer {
  /** 0 when no answer came (a reset connection, a timeout). */
  status: number;
  headers: Headers;
  text: string;
  /** From sending the request to the last byte of the answer. */
  ms: number;
  /** Why no answer came, when none did. */
  failure?: string;
}

/** How the key is put on the wire by the security scheme an operation asks for. */
export interface KeyPlacement {
  in: 'header' | 'query' | 'cookie';
  name: string;
  /** The value around the key: `Bearer ${key}`. */
  format(key: string): string;
}

/** The shell variable the curl command lines read the key from, so a printed finding never shows it. */
export const KEY_VARIABLE = 'FUZZ_KEY';

/** A character no API key holds and no bearer token may: appended, it makes the key a garbled one. */
const GARBLE = '#';

/** Stands for the key in a curl line until it is quoted: no key, header or URL holds it. */
const KEY_MARK = '\u0000key\u0000';

/** The base of a request being addressed and sent: the target's origin and, where the operation asks for one, the key. */
export interface Addressing {
  origin: string;
  key: string | undefined;
  /** The operations' key placements, by operationId; none for an operation served without a key. */
  placements: ReadonlyMap<string, KeyPlacement[]>;
}

/** The request's URL and headers, with `key` standing for the key (the real one to send, a mark to print). */
function wireParts(
  addressing: Addressing,
  request: FuzzRequest,
  key: string | undefined,
): { url: URL; headers: Array<[string, string]> } {
  const url = new URL(addressing.origin + request.path);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
  const headers = Object.entries(request.headers);
  if (request.body?.contentType !== undefined) headers.push(['Content-Type', request.body.contentType]);
  const placements = addressing.placements.get(request.operationId) ?? [];
  if (request.credentials !== 'none' && key !== undefined) {
    const sent = request.credentials === 'garbled' ? `${key}${GARBLE}` : key;
    const cookies: string[] = [];
    for (const placement of placements) {
      const value = placement.format(sent);
      if (placement.in === 'header') headers.push([placement.name, value]);
      if (placement.in === 'query') url.searchParams.append(placement.name, value);
      if (placement.in === 'cookie') cookies.push(`${placement.name}=${value}`);
    }
    if (cookies.length > 0) headers.push(['Cookie', cookies.join('; ')]);
  }
  return { url, headers };
}

/**
 * A connection closed under a request before any answer: most often a kept-alive connection the
 * server closed for idling just as it was reused, which says nothing about the request.
 */
const CLOSED_CONNECTION = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

export async function send(addressing: Addressing, request: FuzzRequest, timeoutMs: number): Promise<Answer> {
  const first = await sendOnce(addressing, request, timeoutMs);
  // Sent again once, on another connection: a server that drops the request itself drops it again.
  return first.failure !== undefined && CLOSED_CONNECTION.has(first.failure)
    ? sendOnce(addressing, request, timeoutMs)
    : first;
}

async function sendOnce(addressing: Addressing, request: FuzzRequest, timeoutMs: number): Promise<Answer> {
  const { url, headers } = wireParts(addressing, request, addressing.key);
  const started = performance.now();
  try {
    const response = await fetch(url, {
      method: request.method,
      headers,
      // As bytes, so that fetch adds no Content-Type of its own.
      body: request.body === undefined ? undefined : new TextEncoder().encode(request.body.text),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, ms: performance.now() - started };
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const failure = cause?.code ?? cause?.message ?? (error as Error).message;
    return { status: 0, headers: new Headers(), text: '', ms: performance.now() - started, failure };
  }
}

/** `text` as one shell word: in single quotes, each single quote closed, escaped and reopened. */
function shellQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** A word holding the key mark: its pieces single-quoted, the key read from the shell variable between them. */
function shellWord(text: string): string {
  return text
    .split(KEY_MARK)
    .map((piece) => (piece === '' ? '' : shellQuoted(piece)))
    .join(`"\${${KEY_VARIABLE}}"`);
}

/** The request as a `curl` command line sending the same bytes: `-i` shows the status and headers of the answer. */
export function curlOf(addressing: Addressing, request: FuzzRequest): string {
  const key = addressing.key === undefined ? undefined : KEY_MARK;
  const { url, headers } = wireParts(addressing, request, key);
  // URL encoding would hide the mark in the query; it is put back for the shell to fill in.
  const href = url.href.replaceAll(encodeURIComponent(KEY_MARK), KEY_MARK);
  const words = ['curl', '-sS', '-i', '-X', request.method, shellWord(href)];
  for (const [name, value] of headers) words.push('-H', shellWord(`${name}: ${value}`));
  if (request.body !== undefined) {
    // curl would add a Content-Type of its own to a body sent without one.
    if (request.body.contentType === undefined) words.push('-H', shellQuoted('Content-Type:'));
    words.push('--data-binary', shellQuoted(request.body.text));
  }
  return words.join(' ');
}
