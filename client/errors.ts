import type { components } from '../generated/openapi.ts';

export type ErrorBody = components['schemas']['Error'];

/** A non-2xx answer where the client cannot hand back `{ error, response }`, as in `listAllPets`. */
export class AnimalStoreError extends Error {
  override readonly name = 'AnimalStoreError';
  /** The operation, as method and contract path, e.g. `GET /pets`. */
  readonly operation: string;
  readonly status: number;
  /** The Error body, when the answer carried one. */
  readonly body: ErrorBody | undefined;
  readonly response: Response;

  constructor(operation: string, response: Response, body: ErrorBody | undefined) {
    super(`${operation} answered ${response.status}${body ? ` ${body.code}: ${body.message}` : ''}`);
    this.operation = operation;
    this.status = response.status;
    this.body = body;
    this.response = response;
  }
}
