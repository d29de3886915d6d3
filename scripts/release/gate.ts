// The breaking-change gate: this API's own rules on top of the classified changes. An
// experimental operation may change in any way; a beta one's breaks are warnings; a deprecated
// operation may go once its `x-sunset` has come; any other break needs a new major version
// served under a new base path (`/v2`). Each change also says which version bump it calls for.
import { basePathOf } from '../../contract/contract.ts';
import { sunsetInstant } from '../../contract/deprecation.ts';
import type { OpenApiDocument } from '../../contract/document.ts';
import { type Change, compareContracts } from './changes.ts';
import { type Bump, largestBump, parseVersion, type Version } from './version.ts';

/** `fails`: the working version does not allow it; `warning`, `allowed`: reported, passing. */
export type Verdict = 'fails' | 'warning' | 'allowed' | 'ok';

export interface Judgement extends Change {
  verdict: Verdict;
  /** Why a breaking change fails, warns or is allowed. */
  reason?: string;
  /** The smallest version bump that may carry the change. */
  bump: Bump;
}

export interface GateResult {
  judgements: Judgement[];
  /** The bump the changes call for: the largest of theirs. */
  bump: Bump;
  passed: boolean;
}

export interface GateOptions {
  /** Today, for the sunset rule. */
  now?: Date;
}

export function runGate(base: OpenApiDocument, working: OpenApiDocument, options: GateOptions = {}): GateResult {
  const from = versionOf(base, 'base');
  const to = versionOf(working, 'working');
  const now = (options.now ?? new Date()).getTime();
  const workingBasePath = basePathOf(working.servers);
  const judgements = compareContracts(base, working).map((change) => judge(change, { from, to, now, workingBasePath }));
  return {
    judgements,
    bump: largestBump(judgements.map((judgement) => judgement.bump)),
    passed: judgements.every((judgement) => judgement.verdict !== 'fails'),
  };
}

interface Context {
  from: Version;
  to: Version;
  now: number;
  workingBasePath: string;
}

function judge(change: Change, { from, to, now, workingBasePath }: Context): Judgement {
  if (change.class === 'documentation') return { ...change, verdict: 'ok', bump: 'patch' };
  if (change.class === 'non-breaking') return { ...change, verdict: 'ok', bump: 'minor' };

  const { operations } = change;
  if (operations.length > 0 && operations.every((operation) => operation.stability === 'experimental')) {
    return { ...change, verdict: 'allowed', reason: 'experimental operation: may change in any way', bump: 'minor' };
  }
  if (change.removesOperation && operations.length > 0 && operations.every((operation) => operation.sunset)) {
    const sunsets = [...new Set(operations.map((operation) => operation.sunset as string))].sort();
    const latest = sunsets.at(-1) as string;
    return now >= sunsetInstant(latest)
      ? { ...change, verdict: 'allowed', reason: `deprecated, removed after its sunset (${latest})`, bump: 'minor' }
      : {
          ...change,
          verdict: 'fails',
          reason: `deprecated operation: may be removed only from its sunset, ${latest}`,
          bump: 'major',
        };
  }
  const stable = operations.length === 0 || operations.some((operation) => operation.stability === 'stable');
  if (!stable) {
    return {
      ...change,
      verdict: 'warning',
      reason: 'beta operation: its clients were told it may change',
      bump: 'minor',
    };
  }
  const major = to.major > from.major ? to.major : from.major + 1;
  const neededPath = `/v${major}`;
  if (to.major <= from.major) {
    return {
      ...change,
      verdict: 'fails',
      reason: `breaks clients of ${from.major}.x: needs version ${major}.0.0 and the base path ${neededPath} in servers`,
      bump: 'major',
    };
  }
  if (workingBasePath !== neededPath) {
    return {
      ...change,
      verdict: 'fails',
      reason: `version ${major} needs the base path ${neededPath} in servers, which give ${workingBasePath || '/'}`,
      bump: 'major',
    };
  }
  return {
    ...change,
    verdict: 'allowed',
    reason: `new major version ${major}, served under ${neededPath}`,
    bump: 'major',
  };
}

function versionOf(document: OpenApiDocument, which: string): Version {
  const version = parseVersion(document.info.version);
  if (version === undefined)
    throw new Error(`The ${which} contract's info.version, "${document.info.version}", is not MAJOR.MINOR.PATCH.`);
  return version;
}
