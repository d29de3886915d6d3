// One fuzz run: the four phases in order (examples, coverage, random, stateful) against one base
// URL, and its report: the seed, each operation's requests and statuses, and the findings.
import type { OpenApiDocument } from '../contract/document.ts';
import { UsageError } from '../core/errors.ts';
import type { CheckName } from './checks.ts';
import { coveragePhase } from './coverage.ts';
import { examplesPhase } from './examples.ts';
import { randomPhase } from './random.ts';
import { type Finding, Session } from './session.ts';
import { targetOf } from './spec.ts';
import { statefulPhase } from './stateful.ts';

export interface FuzzOptions {
  document: OpenApiDocument;
  /** What the document's server URL stands for: `http://127.0.0.1:3000/v1`. */
  baseUrl: string;
  /** Sent where an operation asks for a key, as its security scheme puts it. */
  key?: string;
  /** The same seed sends the same requests to a target in the same state; a random one when not given. */
  seed?: number;
  /** Generated requests per operation in the random phase; a tenth of it in stateful sequences per create. */
  maxExamples?: number;
  /** An answer slower than this is a `max_response_time` finding. */
  maxResponseTimeMs?: number;
  /** False for a target that keeps nothing it is sent (a static mock): the checks that need state are switched off. */
  stateful?: boolean;
  /** A 503 is not counted as a server error (the run asked for some). */
  allow503?: boolean;
  /** Progress, one line per phase. */
  log?: (line: string) => void;
}

export interface FuzzReport {
  seed: number;
  operations: Record<string, { requests: number; statuses: Record<string, number> }>;
  findings: Finding[];
  /** The checks switched off for this run, each with why. */
  skippedChecks: Partial<Record<CheckName, string>>;
  requests: number;
  seconds: number;
}

export const DEFAULT_MAX_EXAMPLES = 100;
/** An answer slower than this counts as none (not_a_server_error). */
const TIMEOUT_MS = 30_000;

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const maxExamples = options.maxExamples ?? DEFAULT_MAX_EXAMPLES;
  const stateful = options.stateful ?? true;
  const log = options.log ?? (() => {});
  const { origin, contract } = targetOf(options.document, options.baseUrl);
  const skipped = new Map<CheckName, string>();
  if (!stateful) skipped.set('use_after_create', 'the target keeps no state (--stateless)');
  if (options.maxResponseTimeMs === undefined) skipped.set('max_response_time', 'no --max-response-time given');
  const session = new Session({
    origin,
    contract,
    key: options.key,
    allow503: options.allow503 ?? false,
    maxResponseTimeMs: options.maxResponseTimeMs,
    stateful,
    skipped,
    timeoutMs: TIMEOUT_MS,
  });

  const phases: Array<[string, () => Promise<void>]> = [
    ['examples', () => examplesPhase(session)],
    ['coverage', () => coveragePhase(session)],
    ['random', () => randomPhase(session, maxExamples, seed)],
    ['stateful', () => statefulPhase(session, maxExamples, seed)],
  ];
  for (const [name, phase] of phases) {
    const before = session.requests;
    await phase();
    log(`${name}: ${session.requests - before} requests, ${session.findings.length} findings so far`);
    if (name === 'examples') unreachable(session, options.baseUrl);
  }
  return {
    seed,
    operations: session.counts,
    findings: session.findings,
    skippedChecks: Object.fromEntries(skipped),
    requests: session.requests,
    seconds: (performance.now() - started) / 1000,
  };
}

/** Nothing answered any example: the base URL is wrong, which no finding would say as plainly. */
function unreachable(session: Session, baseUrl: string): void {
  const answered = Object.values(session.counts).some((count) =>
    Object.keys(count.statuses).some((status) => status !== '0'),
  );
  if (!answered && session.requests > 0) throw new UsageError(`Nothing answers at ${baseUrl}.`);
}
