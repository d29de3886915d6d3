// The Notes API of notes.openapi.yaml, written by hand as another team would (node:http, its own
// checks, no code of the toolkit's), with switches that each break exactly one rule of its
// contract: the fuzzer's own tests use them to make each check fire.
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

export const NOTES_SPEC = path.join(import.meta.dirname, 'notes.openapi.yaml');
export const NOTES_KEY = 'notes-test-key';

/** One rule of the contract broken, on purpose; `fineButSlow` breaks none but takes its time. */
export type Break =
  /** /health answers its declared 503. */
  | 'unavailable'
  /** An unknown note is a 410, which getNote does not declare. */
  | 'undeclaredStatus'
  /** A page of notes comes as text/json. */
  | 'wrongContentType'
  /** A 404's problem lacks its `title`. */
  | 'problemWithoutTitle'
  /** A page of notes comes without its required X-Total-Count. */
  | 'noTotalCount'
  /** A new note's unknown fields are dropped instead of refused. */
  | 'ignoresUnknownFields'
  /** A text of more than 30 characters is refused, where the contract allows 40. */
  | 'refusesLongText'
  /** A note is served to anyone, key or not. */
  | 'servesWithoutKey'
  /** The list lags one write behind: the newest note is on no page. */
  | 'listLagsOneWrite'
  /** /health takes a second. */
  | 'slowHealth'
  /** A text of exactly 40 characters crashes the create (the planted bug). */
  | 'crashesAtLongestText';

interface Note {
  id: number;
  text: string;
  priority: number;
  tags: string[];
  due?: string;
}

const TAGS = ['home', 'work', 'urgent'];
const FIELDS = ['text', 'priority', 'tags', 'due'];

export interface NotesServer {
  baseUrl: string;
  close(): Promise<void>;
}

class Refusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

const codePoints = (text: string) => [...text].length;

function isDate(text: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(text) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text);
}

/** What is wrong with a new note, if anything, as this server's own checks see it. */
function newNoteProblem(body: unknown, breaks: Break | undefined): string | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be an object.';
  const note = body as Record<string, unknown>;
  const unknown = Object.keys(note).find((name) => !FIELDS.includes(name));
  if (unknown !== undefined && breaks !== 'ignoresUnknownFields') return `Unknown field ${unknown}.`;
  const { text, priority, tags, due } = note;
  if (typeof text !== 'string' || codePoints(text) < 1 || codePoints(text) > 40)
    return 'text must be 1 to 40 characters.';
  if (breaks === 'refusesLongText' && codePoints(text) > 30) return 'text must be at most 30 characters.';
  if (priority !== undefined && (!Number.isInteger(priority) || (priority as number) < 1 || (priority as number) > 5))
    return 'priority must be a whole number from 1 to 5.';
  if (
    tags !== undefined &&
    (!Array.isArray(tags) ||
      tags.length > 3 ||
      new Set(tags).size !== tags.length ||
      tags.some((tag) => !TAGS.includes(tag as string)))
  )
    return 'tags must be at most 3 different tags of home, work, urgent.';
  if (due !== undefined && (typeof due !== 'string' || !isDate(due))) return 'due must be a date.';
  return undefined;
}

const cursorOf = (id: number) => Buffer.from(`note-${id}`).toString('base64url');

function afterOf(cursor: string): number {
  const id = /^note-(0|[1-9]\d*)$/.exec(Buffer.from(cursor, 'base64url').toString())?.[1];
  if (id === undefined || cursorOf(Number(id)) !== cursor) throw new Refusal(400, 'after is no cursor of this API.');
  return Number(id);
}

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

export interface NotesServerOptions {
  /** Whether a create says where the note is (`Location`), as the contract declares; most APIs do not. Default true. */
  location?: boolean;
}

export async function startNotesServer(
  breaks?: Break,
  { location = true }: NotesServerOptions = {},
): Promise<NotesServer> {
  const notes: Note[] = [];
  /** Ids are never reused, also after a delete. */
  let lastId = 0;
  const answer = (response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    const type = status >= 400 ? 'application/problem+json' : 'application/json';
    response.writeHead(status, { 'Content-Type': type, ...headers });
    response.end(JSON.stringify(body));
  };

  const list = (query: URLSearchParams, response: ServerResponse) => {
    const limitText = query.get('limit') ?? '5';
    if (!/^(?:[1-9]|10)$/.test(limitText)) throw new Refusal(400, 'limit must be a whole number from 1 to 10.');
    const tag = query.get('tag');
    if (tag !== null && !TAGS.includes(tag)) throw new Refusal(400, 'tag must be home, work or urgent.');
    const after = query.has('after') ? afterOf(query.get('after') as string) : 0;
    const limit = Number(limitText);
    const shown = breaks === 'listLagsOneWrite' ? notes.slice(0, -1) : notes;
    const matching = shown.filter((note) => tag === null || note.tags.includes(tag));
    const page = matching.filter((note) => note.id > after).slice(0, limit);
    const last = page.at(-1);
    const more = last !== undefined && matching.some((note) => note.id > last.id);
    const next = new URLSearchParams({ limit: String(limit), ...(tag === null ? {} : { tag }) });
    if (last) next.set('after', cursorOf(last.id));
    const headers: Record<string, string> = {
      ...(breaks === 'noTotalCount' ? {} : { 'X-Total-Count': String(matching.length) }),
      ...(more ? { Link: `</api/notes?${next}>; rel="next"` } : {}),
    };
    if (breaks === 'wrongContentType') {
      response.writeHead(200, { 'Content-Type': 'text/json', ...headers });
      response.end(JSON.stringify(page));
    } else answer(response, 200, page, headers);
  };

  const create = async (request: IncomingMessage, response: ServerResponse) => {
    const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
    if (type !== 'application/json') throw new Refusal(415, 'Send the note as application/json.');
    let body: unknown;
    try {
      body = JSON.parse(await bodyOf(request));
    } catch {
      throw new Refusal(400, 'The body is not JSON.');
    }
    const problem = newNoteProblem(body, breaks);
    if (problem) throw new Refusal(400, problem);
    const { text, priority = 3, tags = [], due } = body as Partial<Note>;
    if (breaks === 'crashesAtLongestText' && codePoints(text as string) === 40)
      throw new Error('fixed-size buffer overrun');
    const note: Note = {
      id: ++lastId,
      text: text as string,
      priority,
      tags,
      ...(due === undefined ? {} : { due }),
    };
    notes.push(note);
    answer(response, 201, note, location ? { Location: `/api/notes/${note.id}` } : {});
  };

  /** The note a path names; undecoded, since a note's id has no character a path would escape. */
  const noteAt = (idText: string): Note | undefined => {
    if (!/^[1-9]\d{0,6}$/.test(idText) || Number(idText) > 1_000_000)
      throw new Refusal(400, 'noteId must be 1 to 1000000.');
    return notes.find((candidate) => candidate.id === Number(idText));
  };

  const fetchNote = (idText: string, response: ServerResponse) => {
    const note = noteAt(idText);
    if (note) return answer(response, 200, note);
    if (breaks === 'undeclaredStatus') throw new Refusal(410, 'That note is gone.');
    if (breaks === 'problemWithoutTitle') return answer(response, 404, { status: 404, detail: 'No such note.' });
    throw new Refusal(404, 'No such note.');
  };

  const server = createServer(async (request, response) => {
    try {
      const url = new URL(request.url ?? '/', 'http://notes.invalid');
      const route = `${request.method} ${url.pathname.replace(/^\/api\/notes\/[^/]+$/, '/api/notes/{noteId}')}`;
      if (route === 'GET /api/health') {
        if (breaks === 'slowHealth') await delay(1_000);
        if (breaks === 'unavailable') throw new Refusal(503, 'Down for maintenance.');
        return answer(response, 200, { status: 'ok' });
      }
      const served = route === 'GET /api/notes/{noteId}' && breaks === 'servesWithoutKey';
      if (request.headers['x-api-key'] !== NOTES_KEY && !served) throw new Refusal(401, 'Send the key in X-Api-Key.');
      if (route === 'GET /api/notes') return list(url.searchParams, response);
      if (route === 'POST /api/notes') return await create(request, response);
      const idText = url.pathname.split('/')[3] ?? '';
      if (route === 'GET /api/notes/{noteId}') return fetchNote(idText, response);
      if (route === 'DELETE /api/notes/{noteId}') {
        const note = noteAt(idText);
        if (!note) throw new Refusal(404, 'No such note.');
        notes.splice(notes.indexOf(note), 1);
        response.writeHead(204).end();
        return;
      }
      if (/^PUT \/api\/notes\/[^/]+\/attachment$/.test(`${request.method} ${url.pathname}`)) {
        if (!noteAt(idText)) throw new Refusal(404, 'No such note.');
        if (!request.headers['content-type']?.startsWith('multipart/form-data'))
          throw new Refusal(415, 'Send the file as multipart/form-data.');
        await bodyOf(request);
        response.writeHead(204).end();
        return;
      }
      throw new Refusal(404, 'No such path.');
    } catch (error) {
      if (error instanceof Refusal)
        return answer(response, error.status, { title: error.message, status: error.status });
      response.writeHead(500, { 'Content-Type': 'text/plain' });
      response.end('Internal error');
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api`,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}
