// A declared response of the contract, answered in place of the service's handler where a scenario,
// a fault or the request names it. Prism answers it for the mock servers (prism-answers.ts); the
// browser mocks, which cannot carry Prism, answer it from the contract's examples (below).
import type { ContractOperation } from '../../contract/contract.ts';
import type { RouteHandler } from '../../core/collections/handlers.ts';
import { errors } from '../../core/errors.ts';
import { answer, answerJson, setHeader } from '../../core/middleware/answer-headers.ts';

interface DeclaredAnswer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

export interface AnswerRequest {
  operation: ContractOperation;
  /** The request path under the contract's base path, as Prism routes it: `/pets/5`. */
  path: string;
  status: number;
  /** A named example of that response; its first when undefined. */
  example?: string;
  /** Generate the body from the schema instead (with `seed`, the same body every time). */
  dynamic?: boolean;
  seed?: string;
}

export interface DeclaredAnswers {
  answer(request: AnswerRequest): Promise<DeclaredAnswer>;
}

/**
 * The declared response's named example (its first when none is named) and the example value of
 * each header it declares, as Prism answers in its static mode. Nothing is generated: a request
 * for a generated (`dynamic`) body is refused.
 */
export function exampleAnswers(): DeclaredAnswers {
  return {
    async answer({ operation, status, example, dynamic }) {
      if (dynamic)
        throw errors.mockControl(
          'This mock answers with the contract examples only; it generates no bodies (`npm run mock -- --dynamic` does).',
        );
      return exampleAnswer(operation, status, example);
    },
  };
}

/** The `status` response of `operation` with its example called `example` (its first when not named). */
function exampleAnswer(operation: ContractOperation, status: number, example?: string): DeclaredAnswer {
  // The choice was checked against the operation's responses before it got here.
  const response = operation.responses[String(status)];
  if (!response) throw new Error(`${operation.operationId} declares no ${status} response.`);
  const name = example ?? Object.keys(response.examples)[0];
  const headers: Record<string, string> = {};
  for (const [header, declared] of Object.entries(response.headers)) {
    if (declared.example !== undefined) headers[header] = String(declared.example);
  }
  return { status, headers, body: name === undefined ? undefined : response.examples[name] };
}

/**
 * An operation the contract declares outside any collection: its first success response with that
 * response's first named example; a create (a 201 to a request with a body) carries back what was
 * sent, where the example has those fields.
 */
export function declaredSuccess(operation: ContractOperation): RouteHandler {
  const status = Number(Object.keys(operation.responses).find((code) => code.startsWith('2')) ?? 200);
  return async (c, input: { body?: unknown }) => {
    const declared = exampleAnswer(operation, status);
    for (const [name, value] of Object.entries(declared.headers))
      if (!/^x-ratelimit-/i.test(name)) setHeader(c, name, value);
    const sent = input.body;
    const example = declared.body;
    const body =
      status === 201 && isObject(example) && isObject(sent)
        ? { ...example, ...Object.fromEntries(Object.entries(sent).filter(([field]) => field in example)) }
        : example;
    if (body === undefined) return answer(c, null, status as 204);
    return answerJson(c, body, status as 200);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
