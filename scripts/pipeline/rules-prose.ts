// The prose that states the contract's rules to people (the rate limits, the error codes, the
// body limit) and its version, written from the rules and `info.version` themselves, so the docs
// and the README cannot disagree with what the server enforces or with the version released.

import { operationObjects } from '../../contract/document.ts';
import { type ErrorCodeEntry, errorCodes } from '../../contract/error-codes.ts';
import { maxBodyBytes, type RateLimitRules, rateLimitRules } from '../../contract/rate-limit-rules.ts';
import { webhookDelivery } from '../../contract/webhooks.ts';

/** Where the description of the contract (`info.description`) takes the rate-limit prose. */
export const RULES_PROSE_MARKER = '<!-- x-rate-limits -->';
/** Where the description of the contract (`info.description`) takes the table of error codes. */
export const ERROR_CODES_MARKER = '<!-- x-error-codes -->';
/** Where the description of the contract (`info.description`) states `info.version`. */
export const VERSION_MARKER = '<!-- info.version -->';
/** Where the description of the contract states the webhook delivery timeout, and the waits before retries. */
const WEBHOOK_TIMEOUT_MARKER = '<!-- x-webhook-delivery.timeout -->';
const WEBHOOK_RETRIES_MARKER = '<!-- x-webhook-delivery.retries -->';
/** Where the description of an operation takes its `x-max-body-bytes`, in words. */
export const MAX_BODY_BYTES_MARKER = '<!-- x-max-body-bytes -->';

const count = (value: number) => value.toLocaleString('en-US');

function rateLimitTable(rules: RateLimitRules): string {
  const rows = Object.entries(rules.plans).map(([plan, limits]) =>
    limits === 'per-key'
      ? `| ${plan} | set per key | set per key |`
      : `| ${plan} | ${count(limits.perMinute)} | ${count(limits.perDay)} |`,
  );
  return ['| Plan | Requests per minute | Requests per day |', '| --- | --- | --- |', ...rows].join('\n');
}

function banRule(rules: RateLimitRules): string {
  const { afterRefusals, firstBanSeconds, doublesWithinSeconds, longestBanSeconds } = rules.ban;
  return (
    `Requests without a valid key are limited per client address with the ${rules.withoutKey} plan's limits. ` +
    `A caller that sends more than ${afterRefusals} requests while limited is banned for ${duration(firstBanSeconds)}; ` +
    `each further ban that starts within ${duration(doublesWithinSeconds)} of the previous one's start lasts twice as long, ` +
    `up to ${duration(longestBanSeconds)}.`
  );
}

export function rulesProse(rules: RateLimitRules): string {
  return `${rateLimitTable(rules)}\n\n${banRule(rules)}`;
}

/** The table of error codes, in the order of the enum: code, HTTP status, meaning. */
export function errorCodeTable(codes: ErrorCodeEntry[]): string {
  const rows = codes.map(({ code, status, meaning }) => `| \`${code}\` | ${status} | ${meaning} |`);
  return ['| Code | Status | Meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** A body limit as people read it: `16 KiB (16,384 bytes)`, or `1,000 bytes` when not whole KiB. */
export function bodySize(bytes: number): string {
  const inBytes = `${count(bytes)} byte${bytes === 1 ? '' : 's'}`;
  return bytes % 1024 === 0 ? `${count(bytes / 1024)} KiB (${inBytes})` : inBytes;
}

/**
 * The bundled document with each marker replaced by the prose written from its rules: in
 * `info.description` the version, the rate limits and the error codes, in an operation's
 * description its body limit. The document passed in is left as it was.
 */
export function withRulesProse<Document extends { info: { version: string; description?: string } }>(
  document: Document,
): Document {
  const description = document.info.description;
  const replacements: Array<[marker: string, prose: () => string]> = [
    [VERSION_MARKER, () => document.info.version],
    [RULES_PROSE_MARKER, () => rulesProse(rateLimitRules(document as never))],
    [ERROR_CODES_MARKER, () => errorCodeTable(errorCodes(document))],
    [WEBHOOK_TIMEOUT_MARKER, () => duration(webhookDelivery(document).timeoutSeconds)],
    [WEBHOOK_RETRIES_MARKER, () => retryWaits(webhookDelivery(document).retryDelaysSeconds)],
  ];
  let result = document;
  if (description !== undefined && replacements.some(([marker]) => description.includes(marker))) {
    const written = replacements.reduce(
      (text, [marker, prose]) => (text.includes(marker) ? text.replaceAll(marker, prose()) : text),
      description,
    );
    result = { ...document, info: { ...document.info, description: written } };
  }
  return withRetention(withBodyLimits(result));
}

/**
 * Markers a description may hold of a whole number beside it (`x-retention-hours`, the `items` of
 * `x-owner-limit`), how each reads, and where in the extension the number is.
 */
const BESIDE_MARKERS: ReadonlyArray<
  [extension: string, words: (value: number) => string, numberOf: (extension: unknown) => unknown]
> = [
  ['x-retention-hours', (hours) => plural(hours, 'hour'), (hours) => hours],
  ['x-owner-limit', (items) => count(items), (limit) => (limit as { items?: unknown } | undefined)?.items],
];

/** The document with every `<!-- x-… -->` marker of BESIDE_MARKERS replaced by the value beside it; a copy only where one is. */
function withRetention<Document>(document: Document): Document {
  const text = JSON.stringify(document);
  const markers = BESIDE_MARKERS.filter(([extension]) => text.includes(`<!-- ${extension} -->`));
  if (markers.length === 0) return document;
  const copy = structuredClone(document);
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const child of node) visit(child);
    if (typeof node !== 'object' || node === null) return;
    const object = node as Record<string, unknown>;
    for (const [extension, words, numberOf] of markers) {
      const marker = `<!-- ${extension} -->`;
      if (typeof object.description !== 'string' || !object.description.includes(marker)) continue;
      const value = numberOf(object[extension]);
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
        throw new Error(`A description says ${marker} but sets no positive whole ${extension}.`);
      object.description = object.description.replaceAll(marker, words(value));
    }
    for (const child of Object.values(object)) visit(child);
  };
  visit(copy);
  return copy;
}

/** The document with every operation's body-limit marker replaced; a copy only where one is. */
function withBodyLimits<Document>(document: Document): Document {
  const marked = (definition: Record<string, unknown>) =>
    typeof definition.description === 'string' && definition.description.includes(MAX_BODY_BYTES_MARKER);
  if (!operationObjects(document as object).some(({ definition }) => marked(definition))) return document;
  const copy = structuredClone(document);
  for (const { method, path, definition } of operationObjects(copy as object)) {
    if (!marked(definition)) continue;
    const limit = maxBodyBytes(definition);
    if (limit === undefined) {
      throw new Error(
        `${method} ${path} says ${MAX_BODY_BYTES_MARKER} in its description but sets no x-max-body-bytes.`,
      );
    }
    definition.description = (definition.description as string).replaceAll(MAX_BODY_BYTES_MARKER, bodySize(limit));
  }
  return copy;
}

/** `5 seconds, 5 minutes and 10 hours`: each wait after the previous attempt. */
function retryWaits(delays: readonly number[]): string {
  const words = delays.map(duration);
  return words.length < 2 ? (words[0] ?? 'no wait') : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function duration(seconds: number): string {
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ] as const) {
    // 24 hours reads better than 1 day for a ban; days only from 2 on.
    if (seconds % size === 0 && (unit !== 'day' || seconds >= 2 * size)) return plural(seconds / size, unit);
  }
  return plural(seconds, 'second');
}

function plural(amount: number, unit: string): string {
  return `${count(amount)} ${unit}${amount === 1 ? '' : 's'}`;
}
