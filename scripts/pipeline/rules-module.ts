// generated/rules.ts: the contract's rules that openapi-typescript's types do not carry (they hold
// no `x-` data), as constants code can type against, so no module restates them.
import { errorCodes } from '../../contract/readers.ts';

export function rulesModule(document: object, doNotEdit: string): string {
  const statuses = errorCodes(document).map(({ code, status }) => `  ${code}: ${status},`);
  return `// ${doNotEdit}

/** Each error code's HTTP status, as the Error schema's \`x-error-codes\` gives it. */
export const ERROR_CODE_STATUSES = {
${statuses.join('\n')}
} as const;
`;
}
