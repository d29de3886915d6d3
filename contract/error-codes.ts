// The error codes as the contract states them for programs to read: the `enum` of a schema's
// `code` property (the Error schema's), with `x-error-codes` beside it giving each code its HTTP
// status and a one-line meaning. Their shape, and that the two name the same codes, is checked
// when the contract is linted (scripts/lint/rules-as-data.js), so the bundle in generated/ always
// has it.

interface ErrorCodeRule {
  /** The HTTP status an answer with this code has. */
  status: number;
  /** One line for people: when the code is answered. */
  meaning: string;
}

export interface ErrorCodeEntry extends ErrorCodeRule {
  code: string;
}

interface DocumentWithSchemas {
  components?: { schemas?: Record<string, { properties?: Record<string, Record<string, unknown>> }> };
}

/** Every error code with its status and meaning, in the order of the `enum`: `document` is a bundle. */
export function errorCodes(document: object): ErrorCodeEntry[] {
  const { components } = document as DocumentWithSchemas;
  const declared = Object.values(components?.schemas ?? {}).flatMap((schema) =>
    Object.values(schema.properties ?? {}).filter((property) => 'x-error-codes' in property),
  );
  const [only, ...others] = declared;
  if (only === undefined || others.length > 0) {
    throw new Error(
      `The contract must declare x-error-codes on exactly one property of its schemas; found ${declared.length}.`,
    );
  }
  const rules = only['x-error-codes'] as Record<string, ErrorCodeRule>;
  return (only.enum as string[]).map((code) => {
    const rule = rules[code];
    if (rule === undefined) throw new Error(`The error code ${code} has no entry in x-error-codes.`);
    return { code, status: rule.status, meaning: rule.meaning };
  });
}
