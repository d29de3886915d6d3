import type { MediaTypeObject, ReferenceObject, SchemaObject } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import {
  contract,
  keywords,
  namedExamples,
  operations,
  requestBody,
  resolve,
  responses,
} from '../support/contract-document.ts';
import { validatorFor } from '../support/schema-validator.ts';

interface ExampleSite {
  where: string;
  value: unknown;
  schema: SchemaObject | ReferenceObject | undefined;
}

interface Body {
  where: string;
  media: MediaTypeObject;
}

const bodies: Body[] = operations.flatMap(({ operationId }) => {
  const body = requestBody(operationId);
  const requestMedia = Object.entries(body?.content ?? {}).map(([type, media]) => ({
    where: `${operationId} request body ${type}`,
    media: resolve<MediaTypeObject>(media),
  }));
  const responseMedia = responses(operationId).flatMap(([status, declared]) =>
    Object.entries(declared.content ?? {}).map(([type, media]) => ({
      where: `${operationId} ${status} ${type}`,
      media: resolve<MediaTypeObject>(media),
    })),
  );
  return [...requestMedia, ...responseMedia];
});

const exampleSites: ExampleSite[] = [
  ...bodies.flatMap(({ where, media }) =>
    namedExamples(media).map(([name, example]) => ({
      where: `${where} example ${name}`,
      value: example.value,
      schema: media.schema,
    })),
  ),
  ...operations.flatMap(({ operationId, operation }) =>
    (operation.parameters ?? []).map(resolve).flatMap((parameter) =>
      'example' in parameter
        ? [
            {
              where: `${operationId} parameter ${parameter.name}`,
              value: parameter.example,
              schema: parameter.schema,
            },
          ]
        : [],
    ),
  ),
  ...operations.flatMap(({ operationId }) =>
    responses(operationId).flatMap(([status, declared]) =>
      Object.entries(declared.headers ?? {}).flatMap(([name, declaredHeader]) => {
        const resolved = resolve(declaredHeader);
        return 'example' in resolved
          ? [{ where: `${operationId} ${status} header ${name}`, value: resolved.example, schema: resolved.schema }]
          : [];
      }),
    ),
  ),
  ...Object.entries(contract.components?.schemas ?? {}).flatMap(([name, schema]) =>
    ((keywords(schema).examples as unknown[] | undefined) ?? []).map((value, index) => ({
      where: `schema ${name} examples[${index}]`,
      value,
      schema,
    })),
  ),
];

describe('named examples, which the mock answers with', () => {
  it('finds request and response bodies to check', () => {
    expect(bodies.length).toBeGreaterThan(0);
  });

  it.each(
    operations.flatMap(({ operationId }) =>
      responses(operationId)
        // 204 No Content is the one answer without a body.
        .filter(([status]) => status !== '204')
        .map(([status, declared]) => ({ operationId, status, declared })),
    ),
  )('$operationId $status declares a body', ({ declared }) => {
    expect(Object.keys(declared.content ?? {})).not.toHaveLength(0);
  });

  it.each(bodies)('$where has at least one named example', ({ media }) => {
    expect(namedExamples(media)).not.toHaveLength(0);
  });
});

describe('examples', () => {
  it.each(exampleSites)('$where validates against its schema', ({ value, schema }) => {
    expect(schema).toBeDefined();
    const validate = validatorFor(schema ?? {});
    expect(validate(value), JSON.stringify(validate.errors)).toBe(true);
  });
});
