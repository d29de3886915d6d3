// The response validator on a small document of another API, as the fuzzer reads any OpenAPI 3.1
// document: statuses declared by range or as `default`, media types by range, bodies that are
// not JSON, formats JSON Schema does not define, and no Error schema of this contract's.
import { describe, expect, it } from 'vitest';
import { Contract } from '../../contract/contract.ts';
import type { OpenApiDocument } from '../../contract/document.ts';
import { type ObservedResponse, responseValidator } from '../../contract/response-validator.ts';

const note = {
  type: 'object',
  required: ['id', 'phone'],
  properties: { id: { type: 'integer' }, phone: { type: 'string', format: 'phone' } },
};
const problem = { type: 'object', required: ['title'], properties: { title: { type: 'string' } } };

const NOTES: OpenApiDocument = {
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes/{id}': {
      get: {
        operationId: 'getNote',
        responses: {
          '200': { description: 'The note.', content: { 'application/json': { schema: note } } },
          '4XX': { description: 'A refusal.', content: { 'application/problem+json': { schema: problem } } },
          default: { description: 'Anything else.', content: { 'text/*': { schema: { type: 'string' } } } },
        },
      },
    },
  },
};

const validator = responseValidator(new Contract(NOTES));

function answer(status: number, contentType: string, text: string): ObservedResponse {
  return { status, headers: new Headers({ 'Content-Type': contentType }), text };
}

describe('responseValidator, on another API', () => {
  it.each<[string, ObservedResponse]>([
    ['a body of a format JSON Schema does not define', answer(200, 'application/json', '{"id":1,"phone":"any"}')],
    ['a status of a declared range', answer(404, 'application/problem+json', '{"title":"No note."}')],
    ['a status only `default` declares, with a media type of a declared range', answer(500, 'text/plain', 'Oops.')],
  ])('finds nothing wrong with %s', (_case, response) => {
    expect(validator.judge('getNote', response)).toEqual([]);
  });

  it.each<[string, ObservedResponse, string, RegExp]>([
    [
      'a body off the schema of its range',
      answer(409, 'application/problem+json', '{}'),
      'body',
      /required property 'title'/,
    ],
    ['a media type its range does not declare', answer(404, 'application/json', '{}'), 'content-type', /not declared/],
    ['a JSON body that is not JSON', answer(200, 'application/json', '<html>'), 'body', /not JSON/],
  ])('reports %s, naming the part of the answer it is about', (_case, response, aspect, message) => {
    const [found, ...others] = validator.judge('getNote', response);
    expect(others).toEqual([]);
    expect(found?.aspect).toBe(aspect);
    expect(found?.message).toMatch(message);
  });

  it('reports a status no response of the operation declares, where none is `default`', () => {
    const strict = new Contract({
      ...NOTES,
      paths: { '/notes': { get: { operationId: 'listNotes', responses: { '200': { description: 'Notes.' } } } } },
    });
    expect(responseValidator(strict).judge('listNotes', answer(204, 'application/json', ''))).toEqual([
      { aspect: 'status', message: 'listNotes declares no 204 response (it declares 200)' },
    ]);
  });
});
