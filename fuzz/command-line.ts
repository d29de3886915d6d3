// What `npm run fuzz` reads and writes: its flags (node:util's parseArgs, a usage error for
// anything else), each finding as a block a person reads, the closing summary and the JSON report.
import path from 'node:path';
import { UsageError } from '../core/errors.ts';
import { readArguments } from '../node/command-line.ts';
import { CHECKS } from './checks.ts';
import { KEY_VARIABLE } from './requests.ts';
import { DEFAULT_MAX_EXAMPLES, type FuzzReport } from './run.ts';
import type { Finding } from './session.ts';

const DEFAULT_SPEC = path.join(import.meta.dirname, '..', 'generated', 'openapi.json');

export const USAGE = `Usage: npm run fuzz -- --base-url <url> [options]

  --base-url <url>           what the document's server URL stands for, e.g. http://127.0.0.1:3000/v1
  --key <api key>            sent where an operation asks for a key, as its security scheme says
  --spec <file>              the OpenAPI 3.1 document, JSON or YAML (default: generated/openapi.json)
  --seed <n>                 the same seed sends the same requests (default: a random one, printed)
  --max-examples <n>         generated requests per operation (default: ${DEFAULT_MAX_EXAMPLES})
  --max-response-time <ms>   an answer slower than this is a finding
  --report <file>            write the run's report as JSON
  --stateless                the target keeps nothing it is sent: checks that need state are off
  --allow-503                a 503 is not counted as a server error
  --help                     this text

Checks: ${CHECKS.join(', ')}.
Exit status: 0 nothing found, 1 findings, 2 bad usage.`;

export interface Arguments {
  spec: string;
  baseUrl: string;
  key?: string;
  seed?: number;
  maxExamples?: number;
  maxResponseTimeMs?: number;
  report?: string;
  stateless: boolean;
  allow503: boolean;
}

/** A whole number of at least `least`, or a usage error naming the flag. */
function wholeNumber(flag: string, text: string | undefined, least: number): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^-?\d+$/.test(text) || !Number.isSafeInteger(value) || value < least)
    throw new UsageError(`--${flag} must be a whole number of at least ${least}; got ${JSON.stringify(text)}.`);
  return value;
}

/** The flags as given, checked; 'help' for `--help`; a usage error naming what is wrong. */
export function parseArguments(argv: string[]): Arguments | 'help' {
  const { values, positionals } = readArguments(argv, {
    'base-url': { type: 'string' },
    key: { type: 'string' },
    spec: { type: 'string' },
    seed: { type: 'string' },
    'max-examples': { type: 'string' },
    'max-response-time': { type: 'string' },
    report: { type: 'string' },
    stateless: { type: 'boolean', default: false },
    'allow-503': { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  });
  if (positionals.length > 0)
    throw new UsageError(`Unexpected argument "${positionals[0]}"; the fuzzer takes flags only.`);
  if (values.help) return 'help';
  const text = (name: keyof typeof values) => values[name] as string | undefined;
  const baseUrl = text('base-url');
  if (baseUrl === undefined) throw new UsageError('--base-url is required: the URL the document’s server stands for.');
  return {
    spec: text('spec') ?? DEFAULT_SPEC,
    baseUrl,
    key: text('key'),
    seed: wholeNumber('seed', text('seed'), 0),
    maxExamples: wholeNumber('max-examples', text('max-examples'), 1),
    maxResponseTimeMs: wholeNumber('max-response-time', text('max-response-time'), 1),
    report: text('report'),
    stateless: values.stateless === true,
    allow503: values['allow-503'] === true,
  };
}

function indented(text: string, prefix: string): string {
  return text
    .split('\n')
    .map((line) => `${prefix}${line}`)
    .join('\n');
}

/** One finding as a block a person reads: the check, the operation, what was expected and what came, the curl. */
export function findingBlock(finding: Finding): string {
  return [
    `✗ ${finding.check}  ${finding.operationId}  ${finding.method} ${finding.path} → ${finding.status || 'no answer'}`,
    `  sent:     ${finding.sent}`,
    `  expected: ${finding.expected}`,
    `  got:      ${finding.got}`,
    '  reproduce:',
    indented(finding.curl, '    '),
  ].join('\n');
}

/** The closing lines: counts and time, the checks switched off, how to reproduce. */
export function summary(report: FuzzReport, key: string | undefined): string {
  const lines = [
    `${report.requests} requests in ${report.seconds.toFixed(1)} s (${Math.round(report.requests / report.seconds)}/s), ` +
      `${report.findings.length} finding${report.findings.length === 1 ? '' : 's'}; seed ${report.seed}.`,
  ];
  for (const [check, why] of Object.entries(report.skippedChecks)) lines.push(`Switched off: ${check} (${why}).`);
  if (report.findings.length > 0) {
    if (key !== undefined)
      lines.push(`The curl lines read the key from $${KEY_VARIABLE}: export ${KEY_VARIABLE}='<the --key given>'.`);
    lines.push(`Run again with --seed ${report.seed} to send the same requests.`);
  }
  return lines.join('\n');
}

/** The report `--report` writes: the seed, each operation's requests and statuses, the findings, the checks switched off. */
export function reportJson(report: FuzzReport): string {
  const { seed, operations, findings, skippedChecks } = report;
  const written = findings.map(({ check, operationId, method, path, status, sent, expected, got, curl }) => ({
    check,
    operationId,
    method,
    path,
    status,
    message: `${sent}: expected ${expected}; got ${got}`,
    curl,
  }));
  return `${JSON.stringify({ seed, operations, findings: written, skippedChecks }, null, 2)}\n`;
}
