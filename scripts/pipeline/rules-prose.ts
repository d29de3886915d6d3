// The prose that states the contract's rate-limit rules to people, written from the rules
// themselves, so the docs and the README cannot disagree with what the server enforces.
import { type RateLimitRules, rateLimitRules } from '../../contract/rate-limit-rules.ts';

/** Where the description of the contract (`info.description`) takes the generated prose. */
export const RULES_PROSE_MARKER = '<!-- x-rate-limits -->';

const count = (value: number) => value.toLocaleString('en-US');

export function rateLimitTable(rules: RateLimitRules): string {
  const rows = Object.entries(rules.plans).map(([plan, limits]) =>
    limits === 'per-key'
      ? `| ${plan} | set per key | set per key |`
      : `| ${plan} | ${count(limits.perMinute)} | ${count(limits.perDay)} |`,
  );
  return ['| Plan | Requests per minute | Requests per day |', '| --- | --- | --- |', ...rows].join('\n');
}

export function banRule(rules: RateLimitRules): string {
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

/** The bundled document with the marker in its description replaced by the rules' prose. */
export function withRulesProse<Document extends { info: { description?: string } }>(document: Document): Document {
  const description = document.info.description;
  if (!description?.includes(RULES_PROSE_MARKER)) return document;
  const prose = rulesProse(rateLimitRules(document as never));
  return { ...document, info: { ...document.info, description: description.replace(RULES_PROSE_MARKER, prose) } };
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
