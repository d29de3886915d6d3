// The words for what is wrong with a request: one sentence per problem, naming the parameter or
// body field, that a person can act on.
import type { ErrorObject } from 'ajv/dist/2020.js';
import type { components } from '../generated/openapi.ts';

/** One problem of a request, as the Error body's `details` lists it. */
export type RequestProblem = NonNullable<components['schemas']['Error']['details']>[number];
export type RequestLocation = RequestProblem['in'];

const SUBJECT: Record<RequestLocation, string> = {
  query: 'Query parameter',
  path: 'Path parameter',
  body: 'Body field',
};

export function problem(location: RequestLocation, name: string, complaint: string): RequestProblem {
  const subject = name ? `${SUBJECT[location]} \`${name}\`` : 'The request body';
  return { in: location, name, message: `${subject} ${complaint}.` };
}

export function fromSchemaError(error: ErrorObject, location: RequestLocation): RequestProblem {
  const field = fieldName(error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return problem(location, joinField(field, String(params.missingProperty)), 'is required');
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      return problem(
        location,
        joinField(field, String(params.additionalProperty)),
        `is not allowed; the allowed fields are ${allowed.map((key) => `\`${key}\``).join(', ')}`,
      );
    }
    case 'type':
      return problem(location, field, `must be ${article(String(params.type))}`);
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((value) => `\`${String(value)}\``);
      return problem(location, field, `must be one of ${allowed.join(', ')}`);
    }
    case 'minimum':
      return problem(location, field, `must be at least ${String(params.limit)}`);
    case 'maximum':
      return problem(location, field, `must be at most ${String(params.limit)}`);
    case 'minLength':
      return problem(
        location,
        field,
        `must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`,
      );
    case 'maxLength':
      return problem(location, field, `must be at most ${String(params.limit)} characters long`);
    case 'pattern': {
      const explanation = error.parentSchema?.['x-pattern-message'];
      return problem(
        location,
        field,
        typeof explanation === 'string' ? explanation : 'does not have the expected format',
      );
    }
    default:
      return problem(location, field, error.message ?? 'is invalid');
  }
}

/** `a.b[0]` for the instance path `/a/b/0`. */
function fieldName(error: ErrorObject): string {
  return error.instancePath
    .split('/')
    .slice(1)
    .map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((segment, index) => (/^\d+$/.test(segment) ? `[${segment}]` : index === 0 ? segment : `.${segment}`))
    .join('');
}

export function joinField(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
