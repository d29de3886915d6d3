// Where a scenario, a fault or the request names the response, it is answered in place of the
// service's handler; the request has been validated and counted against its window by then.
import type { MiddlewareHandler } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ContractOperation } from '../../contract/contract.ts';
import { ApiError, errors } from '../../core/errors.ts';
import type { AppEnv } from '../../core/http-types.ts';
import { answerJson, setHeader } from '../../core/middleware/answer-headers.ts';
import type { DeclaredAnswers } from './declared-answers.ts';
import type { RequestChoice } from './request-choice.ts';
import { type ChosenAnswer, checkedAnswer } from './scenarios.ts';

/** Set by the app itself on every answer: the live rate-limit window and the deprecation. */
const SET_BY_THE_APP = /^(x-ratelimit-|deprecation$|sunset$|link$)/i;

/**
 * What the mock hands the app beside the request (its `env`, with the Node server's bindings):
 * the request's choice, or why it cannot be followed. Not kept by request: the app's middleware
 * may replace the request (the body limit does, for a body sent without Content-Length).
 */
export interface ChoiceBindings {
  choice?: RequestChoice | ApiError;
}

export function answerChosen(operation: ContractOperation, answers: DeclaredAnswers): MiddlewareHandler<AppEnv> {
  // The answer is routed by the path as the document writes it: without the operation's own base path,
  // `/v1` for the API, none for the probes served beside it.
  const basePath = operation.servedPath.slice(0, operation.servedPath.length - operation.path.length);
  return async (c, next) => {
    const choice = (c.env as ChoiceBindings | undefined)?.choice;
    if (choice instanceof ApiError) throw choice;
    const wanted = choice && chosenAnswer(operation, choice);
    if (!wanted) return next();
    const answer = await answers.answer({ operation, path: c.req.path.slice(basePath.length), ...wanted });
    for (const [name, value] of Object.entries(answer.headers)) {
      if (!SET_BY_THE_APP.test(name)) setHeader(c, name, value);
    }
    if (answer.status === 429) setHeader(c, 'X-RateLimit-Remaining', '0');
    return answerJson(c, answer.body, answer.status as ContentfulStatusCode);
  };
}

/** The declared response the choice names for `operation`, if it names one. */
function chosenAnswer(
  operation: ContractOperation,
  { explicit, fault, scenario }: RequestChoice,
): (ChosenAnswer & { dynamic?: boolean }) | undefined {
  const refuse = (text: string) =>
    errors.mockControl(`The mock cannot answer ${operation.method} ${operation.servedPath} with ${text}`);
  if (explicit.status !== undefined || explicit.example !== undefined) {
    const status = explicit.status ?? statusWithExample(operation, explicit.example);
    if (status === undefined) throw refuse(`the example "${explicit.example}": none of its responses has it.`);
    const chosen = checkedAnswer(operation, { status, example: explicit.example }, refuse);
    // Error answers stay the contract's examples: a generated Error would not fit its status.
    return { ...chosen, dynamic: explicit.dynamic === true && status < 400 };
  }
  if (explicit.dynamic) return { status: firstSuccess(operation), dynamic: true };
  // Where the operation declares a 503: `/healthz` answers as long as the process does.
  if (fault === 'unavailable' && operation.responses['503']) return { status: 503 };
  return scenario.answers[operation.operationId];
}

function statusWithExample(operation: ContractOperation, example: string | undefined): number | undefined {
  const found = Object.entries(operation.responses).find(
    ([, response]) => example !== undefined && example in response.examples,
  );
  return found && Number(found[0]);
}

function firstSuccess(operation: ContractOperation): number {
  return Number(Object.keys(operation.responses).find((status) => status.startsWith('2')) ?? 200);
}
