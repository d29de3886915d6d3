// What the contract suite asks of every answer, through the contract's one response validator
// (contract/response-validator.ts): the response an operation declares, and the one Error body.
import { loadContract } from '../../../contract/bundled.ts';
import { responseValidator } from '../../../contract/response-validator.ts';

/** A response as read off the wire, body already read, so checks never race the stream. */
export interface ApiResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  body: unknown;
}

const validator = responseValidator(loadContract());

/** Everything about `response` that the contract's declaration for `operationId` does not allow. */
export function conformanceProblems(operationId: string, response: ApiResponse): string[] {
  return validator.problems(operationId, response);
}

/** For an error response, also outside any operation (unknown path, undeclared method). */
export function errorBodyProblems(response: ApiResponse): string[] {
  return validator.errorBodyProblems(response);
}
