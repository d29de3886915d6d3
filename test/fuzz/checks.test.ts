// Each check of the fuzzer can fail: against the Notes API of another team (its own contract, its
// own hand-written server) with exactly one rule of its contract broken, the fuzzer reports that
// check, on that operation, and nothing else; with none broken, it reports nothing.
import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../contract/document.ts';
import type { CheckName } from '../../fuzz/checks.ts';
import { type FuzzOptions, type FuzzReport, fuzz } from '../../fuzz/run.ts';
import { readDocument } from '../../fuzz/spec.ts';
import { defined } from '../support/defined.ts';
import {
  type Break,
  NOTES_KEY,
  NOTES_SPEC,
  type NotesServerOptions,
  startNotesServer,
} from '../support/fuzz/notes-server.ts';

let document: OpenApiDocument;
beforeAll(async () => {
  document = await readDocument(NOTES_SPEC);
});

/** A small run: what each case breaks is found by the examples, the boundaries or the first sequences. */
async function fuzzNotes(
  breaks: Break | undefined,
  options: Partial<FuzzOptions> = {},
  server_: NotesServerOptions = {},
): Promise<FuzzReport> {
  const server = await startNotesServer(breaks, server_);
  try {
    return await fuzz({ document, baseUrl: server.baseUrl, key: NOTES_KEY, seed: 7, maxExamples: 4, ...options });
  } finally {
    await server.close();
  }
}

const found = (report: FuzzReport) => report.findings.map(({ check, operationId }) => [check, operationId]);

describe('fuzz, against the Notes API as its contract describes it', () => {
  it('finds nothing, and sends every operation some requests', async () => {
    const report = await fuzzNotes(undefined);
    expect(report.findings).toEqual([]);
    for (const [operationId, { requests }] of Object.entries(report.operations))
      expect(requests, `requests to ${operationId}`).toBeGreaterThan(0);
  });
});

/** As much of a path item as the edit below reads. */
interface PathItem {
  post?: { responses: Record<string, Record<string, unknown>> };
  parameters?: Array<{ schema?: object }>;
}

describe('fuzz, against a Notes API whose creates answer no Location and declare no links', () => {
  /**
   * The Notes contract as most APIs are described: the 201 of createNote without `Location` or
   * links; with `inlineId`, the item path's `noteId` written in place, so that no schema says it
   * is the kind of the body's `id`.
   */
  const described = (inlineId: boolean): OpenApiDocument => {
    const copy = structuredClone(document);
    const paths = copy.paths as Record<string, PathItem>;
    const created = defined(paths['/notes']?.post?.responses['201'], "createNote's 201");
    delete created.headers;
    delete created.links;
    const noteId = defined(paths['/notes/{noteId}']?.parameters?.[0], 'the noteId parameter');
    if (inlineId) noteId.schema = { type: 'integer', minimum: 1, maximum: 1000000 };
    return copy;
  };

  it.each([
    ["a path parameter of the body id's own schema", false],
    ["a path parameter of a schema of its own, named unlike the body's id", true],
  ])(
    'finds nothing on the correct server, fetching each note created by the id its 201 shows, with %s',
    async (_case, inlineId) => {
      const report = await fuzzNotes(undefined, { document: described(inlineId) }, { location: false });
      expect(report.findings).toEqual([]);
      expect(report.operations.getNote?.requests).toBeGreaterThan(0);
    },
  );

  it('still reports the note missing from the list', async () => {
    const report = await fuzzNotes('listLagsOneWrite', { document: described(false) }, { location: false });
    expect(found(report)).toEqual([['use_after_create', 'listNotes']]);
  });
});

describe('fuzz, against the Notes API with one rule broken', () => {
  it.each<[CheckName, string, Break, string]>([
    ['not_a_server_error', 'answers its declared 503 to a request that asked for none', 'unavailable', 'getHealth'],
    ['status_code_conformance', 'answers a status the operation does not declare', 'undeclaredStatus', 'getNote'],
    ['content_type_conformance', 'answers a media type the response does not declare', 'wrongContentType', 'listNotes'],
    ['response_schema_conformance', 'answers a body off its schema', 'problemWithoutTitle', 'getNote'],
    ['response_headers_conformance', 'leaves out a required header', 'noTotalCount', 'listNotes'],
    ['negative_data_rejection', 'accepts a field the schema forbids', 'ignoresUnknownFields', 'createNote'],
    ['positive_data_acceptance', 'refuses a text the schema allows', 'refusesLongText', 'createNote'],
    ['ignored_auth', 'serves an operation that asks for a key without one', 'servesWithoutKey', 'getNote'],
    ['use_after_create', 'lists every note but the one just created', 'listLagsOneWrite', 'listNotes'],
  ])('reports %s, and only it, when the server %s', async (check, _rule, breaks, operationId) => {
    const report = await fuzzNotes(breaks);
    expect(found(report)).toEqual([[check, operationId]]);
  });

  it('reports max_response_time for an answer slower than --max-response-time', async () => {
    // Other answers may be slow too on a loaded machine; the slow one must be among them.
    const report = await fuzzNotes('slowHealth', { maxResponseTimeMs: 500 });
    expect(found(report)).toContainEqual(['max_response_time', 'getHealth']);
    expect(new Set(report.findings.map(({ check }) => check))).toEqual(new Set(['max_response_time']));
  });

  it('counts no 503 as a server error when the run allows them', async () => {
    const report = await fuzzNotes('unavailable', { allow503: true });
    expect(report.findings).toEqual([]);
  });

  it('switches off use_after_create for a target that keeps nothing, and says so', async () => {
    const report = await fuzzNotes('listLagsOneWrite', { stateful: false });
    expect(report.findings).toEqual([]);
    expect(report.skippedChecks).toMatchObject({ use_after_create: 'the target keeps no state (--stateless)' });
  });
});
