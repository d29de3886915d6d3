// generated/rules.ts: the contract's rules that openapi-typescript's types do not carry (they hold
// no `x-` data), as constants code can type against, so no module restates them.

import type { JsonObject } from '../../contract/document.ts';
import { errorCodes } from '../../contract/error-codes.ts';
import { requestMediaTypes } from '../../contract/media-types.ts';
import { rateLimitRules } from '../../contract/rate-limit-rules.ts';

/** The header component a 503 carries, and the extension on it that says how long to wait. */
const UNAVAILABLE_RETRY_AFTER = { header: 'Retry-After-Unavailable', extension: 'x-retry-after-seconds' } as const;

/** The module's text; throws naming what is missing when the contract lacks a rule it carries. */
export function rulesModule(document: object, doNotEdit: string): string {
  const statuses = errorCodes(document).map(({ code, status }) => `  ${code}: ${status},`);
  return `// ${doNotEdit}

/** Each error code's HTTP status, as the Error schema's \`x-error-codes\` gives it. */
export const ERROR_CODE_STATUSES = {
${statuses.join('\n')}
} as const;

/** Each plan of \`x-rate-limits\` with its windows' limits; \`per-key\` where each key of the plan carries its own. */
export const PLAN_LIMITS = ${planLimits(document)} as const;

/** The \`Retry-After\` every 503 carries, as \`${UNAVAILABLE_RETRY_AFTER.extension}\` on the \`${UNAVAILABLE_RETRY_AFTER.header}\` header states it. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = ${unavailableRetryAfter(document)};

/** The most problems an Error body lists in \`details\`, its schema's \`maxItems\`. */
export const MAX_ERROR_DETAILS = ${maxErrorDetails(document)};

/** The media type each operation's request body is sent as, by \`METHOD path\` (a merge patch's is \`application/merge-patch+json\`). */
export const REQUEST_MEDIA_TYPES: Readonly<Record<string, string>> = {
${Object.entries(requestMediaTypes(document))
  .map(([operation, mediaType]) => `  ${JSON.stringify(operation)}: ${JSON.stringify(mediaType)},`)
  .join('\n')}
};
`;
}

function maxErrorDetails(document: object): number {
  const schemas = ((document as JsonObject).components as JsonObject | undefined)?.schemas as
    | Record<string, JsonObject>
    | undefined;
  const details = (schemas?.Error?.properties as Record<string, JsonObject> | undefined)?.details;
  const maxItems = details?.maxItems;
  if (!Number.isSafeInteger(maxItems) || (maxItems as number) < 1)
    throw new Error('The Error schema must bound `details` with `maxItems`, a whole number, at least 1.');
  return maxItems as number;
}

function planLimits(document: object): string {
  const entries = Object.entries(rateLimitRules(document).plans).map(
    ([plan, limits]) =>
      `  ${plan}: ${limits === 'per-key' ? "'per-key'" : `{ perMinute: ${limits.perMinute}, perDay: ${limits.perDay} }`},`,
  );
  return `{\n${entries.join('\n')}\n}`;
}

function unavailableRetryAfter(document: object): number {
  const { header, extension } = UNAVAILABLE_RETRY_AFTER;
  const headers = ((document as JsonObject).components as JsonObject | undefined)?.headers as
    | Record<string, JsonObject>
    | undefined;
  const seconds = headers?.[header]?.[extension];
  if (!Number.isSafeInteger(seconds) || (seconds as number) < 1)
    throw new Error(`The header component ${header} must set ${extension} to a whole number of seconds, at least 1.`);
  return seconds as number;
}
