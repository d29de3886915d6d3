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
  const { name, complaint } = schemaComplaint(error);
  return problem(location, name, complaint);
}

/** What a schema error says is wrong, and with which field (empty for the value as a whole). */
export function schemaComplaint(error: ErrorObject): { name: string; complaint: string } {
  const field = fieldName(error);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return complaintOf(joinField(field, String(params.missingProperty)), 'is required');
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      return complaintOf(
        joinField(field, String(params.additionalProperty)),
        `is not allowed; the allowed fields are ${allowed.map((key) => `\`${key}\``).join(', ')}`,
      );
    }
    case 'minProperties': {
      // `{}` sent where a change or a choice is asked for: say what to send, from the schema's fields.
      const fields = Object.keys((error.parentSchema?.properties as object | undefined) ?? {});
      const limit = Number(params.limit);
      const wanted = limit === 1 ? 'at least one' : `at least ${limit}`;
      const given = limit === 1 ? 'names no field' : `names fewer than ${limit} fields`;
      return complaintOf(
        field,
        fields.length > 0
          ? `${given}; send ${wanted} of ${fields.map((key) => `\`${key}\``).join(', ')}`
          : `${given}; send ${wanted}`,
      );
    }
    case 'type':
      return complaintOf(field, `must be ${article(String(params.type))}`);
    case 'enum': {
      const allowed = (params.allowedValues as unknown[]).map((value) => `\`${String(value)}\``);
      return complaintOf(field, `must be one of ${allowed.join(', ')}`);
    }
    case 'minimum':
      return complaintOf(field, `must be at least ${String(params.limit)}`);
    case 'maximum':
      return complaintOf(field, `must be at most ${String(params.limit)}`);
    case 'minLength':
      return complaintOf(
        field,
        `must be at least ${String(params.limit)} character${params.limit === 1 ? '' : 's'} long`,
      );
    case 'maxLength':
      return complaintOf(field, `must be at most ${String(params.limit)} characters long`);
    case 'pattern': {
      const explanation = error.parentSchema?.['x-pattern-message'];
      return complaintOf(field, typeof explanation === 'string' ? explanation : 'does not have the expected format');
    }
    default:
      return complaintOf(field, error.message ?? 'is invalid');
  }
}

function complaintOf(name: string, complaint: string): { name: string; complaint: string } {
  return { name, complaint };
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
