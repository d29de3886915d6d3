// The request validator on a small document of another API, for what the bundled contract does not
// show: a query parameter of type number, read from its text as JSON writes numbers.
import { describe, expect, it } from 'vitest';
import { Contract } from '../../contract/contract.ts';
import { requestValidator } from '../../contract/request-validator.ts';

const contract = new Contract({
  openapi: '3.1.0',
  info: { title: 'Places', version: '1.0.0' },
  paths: {
    '/places': {
      get: {
        operationId: 'findPlaces',
        parameters: [
          { name: 'lat', in: 'query', required: true, schema: { type: 'number', minimum: -90, maximum: 90 } },
        ],
        responses: { '200': { description: 'Places.' } },
      },
    },
  },
});
const validator = requestValidator(contract);

describe('requestValidator, on a number query parameter', () => {
  it.each([
    ['52.52', 52.52],
    ['-33', -33],
    ['1e1', 10],
  ])('reads %s as the number %s', (text, value) => {
    expect(validator.validate('findPlaces', { query: { lat: text }, path: {} })).toEqual({
      valid: true,
      input: { query: { lat: value }, path: {}, body: undefined },
    });
  });

  it.each([
    ['text that is no number', 'north', /must be a number written in decimal digits/],
    ['a number out of range', '91', /must be at most 90/],
    ['a number JSON does not write', '.5', /must be a number written in decimal digits/],
  ])('refuses %s, naming the parameter', (_case, text, message) => {
    const verdict = validator.validate('findPlaces', { query: { lat: text }, path: {} });
    expect(verdict.valid).toBe(false);
    expect(verdict.valid === false && verdict.problems[0].message).toMatch(message);
    expect(verdict.valid === false && verdict.problems[0].name).toBe('lat');
  });
});

const notes = new Contract({
  openapi: '3.1.0',
  info: { title: 'Notes', version: '1.0.0' },
  paths: {
    '/notes/{id}': {
      patch: {
        operationId: 'editNote',
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          content: {
            'application/merge-patch+json': {
              schema: {
                type: 'object',
                minProperties: 1,
                additionalProperties: false,
                properties: { title: { type: 'string' }, body: { type: 'string' } },
              },
            },
            'application/json': {
              schema: { type: 'object', required: ['title'], properties: { title: { type: 'string' } } },
            },
          },
        },
        responses: { '200': { description: 'The note.' } },
      },
    },
  },
});
const editNote = (body: unknown, mediaType?: string) =>
  requestValidator(notes).validate('editNote', { query: {}, path: { id: '1' }, body, mediaType });

describe('requestValidator, on a body of several JSON media types', () => {
  it('checks a body against the schema of the media type it was sent as', () => {
    expect(editNote({ body: 'text' }, 'application/merge-patch+json')).toMatchObject({ valid: true });
    expect(editNote({ body: 'text' }, 'application/json')).toMatchObject({
      valid: false,
      problems: [{ in: 'body', name: 'title', message: 'Body field `title` is required.' }],
    });
  });

  it('answers an empty merge patch with a sentence naming the fields to send', () => {
    expect(editNote({}, 'application/merge-patch+json')).toEqual({
      valid: false,
      problems: [
        {
          in: 'body',
          name: '',
          message: 'The request body names no field; send at least one of `title`, `body`.',
        },
      ],
    });
  });
});
