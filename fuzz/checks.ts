// The checks every answer goes through, by the names findings carry: the answer as the contract
// declares it (through the contract module's response validator), and the answer as the request
// deserves it (what the expectation of the request says).
import type { ResponseValidator } from '../contract/response-validator.ts';
import type { Expectation } from './expectations.ts';
import type { Answer, FuzzRequest } from './requests.ts';

export const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'negative_data_rejection',
  'positive_data_acceptance',
  'ignored_auth',
  'use_after_create',
  'max_response_time',
] as const;

export type CheckName = (typeof CHECKS)[number];

/** What a check found wrong with one answer. */
export interface Problem {
  check: CheckName;
  expected: string;
  got: string;
}

export interface CheckSettings {
  responses: ResponseValidator;
  /** A 503 is the service saying it cannot work now; counted only when the run asks for none. */
  allow503: boolean;
  maxResponseTimeMs?: number;
  /** Checks switched off for this target, with why. */
  skipped: ReadonlyMap<CheckName, string>;
}

/** Statuses that refuse a request for reasons other than its input: credentials, state, time, rate. */
const NOT_ABOUT_THE_INPUT = new Set([401, 403, 408, 409, 410, 412, 423, 425, 428, 429]);

const ASPECT_CHECK = {
  status: 'status_code_conformance',
  'content-type': 'content_type_conformance',
  header: 'response_headers_conformance',
  body: 'response_schema_conformance',
} as const satisfies Record<string, CheckName>;

/** The answer as a person reads it in a finding: its status, Content-Type and the start of its body. */
export function answered(answer: Answer): string {
  if (answer.status === 0) return `no answer (${answer.failure})`;
  const type = answer.headers.get('Content-Type');
  const body = answer.text.length > 300 ? `${answer.text.slice(0, 300)}…` : answer.text;
  return `${answer.status}${type ? ` ${type}` : ''}${body ? ` ${body}` : ''}`;
}

export function checkAnswer(
  settings: CheckSettings,
  request: FuzzRequest,
  expectation: Expectation,
  answer: Answer,
): Problem[] {
  const problems: Problem[] = [];
  const { status } = answer;
  if (status === 0 || (status >= 500 && !(status === 503 && settings.allow503)))
    problems.push({
      check: 'not_a_server_error',
      expected: 'an answer that is not a server error (5xx)',
      got: answered(answer),
    });
  if (status !== 0) {
    const byCheck = new Map<CheckName, string[]>();
    for (const { aspect, message } of settings.responses.judge(request.operationId, answer)) {
      const check = ASPECT_CHECK[aspect];
      byCheck.set(check, [...(byCheck.get(check) ?? []), message]);
    }
    for (const [check, messages] of byCheck)
      problems.push({ check, expected: 'the answer the contract declares', got: `${status}: ${messages.join('; ')}` });
  }
  if (status !== 0 && status < 400) {
    if (expectation.kind === 'refused')
      problems.push({
        check: 'ignored_auth',
        expected: `a refusal of a request ${expectation.credentials === 'none' ? 'without a key' : 'with a garbled key'}`,
        got: answered(answer),
      });
    if (expectation.kind === 'invalid')
      problems.push({
        check: 'negative_data_rejection',
        expected: `a 4xx refusal, since ${expectation.problems.join(' ')}`,
        got: answered(answer),
      });
  }
  const blamesInput = status >= 400 && status < 500 && !NOT_ABOUT_THE_INPUT.has(status);
  if (
    expectation.kind === 'valid' &&
    blamesInput &&
    !expectation.excused.includes('any') &&
    !expectation.excused.includes(status)
  )
    problems.push({
      check: 'positive_data_acceptance',
      expected: 'acceptance of a request the contract allows',
      got: answered(answer),
    });
  if (settings.maxResponseTimeMs !== undefined && answer.ms > settings.maxResponseTimeMs)
    problems.push({
      check: 'max_response_time',
      expected: `an answer within ${settings.maxResponseTimeMs} ms`,
      got: `${Math.round(answer.ms)} ms`,
    });
  return problems.filter((problem) => !settings.skipped.has(problem.check));
}
