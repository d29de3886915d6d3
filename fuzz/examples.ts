// Phase 1: every named example of every parameter and body, each on the operation's one valid
// request; an operation with no example is sent that request once.
import type { FuzzOperation } from './operations.ts';
import { baseParts, type Parts, requestOf, withKnownIds } from './parts.ts';
import type { FuzzRequest } from './requests.ts';
import type { Session } from './session.ts';
import { asText } from './values.ts';

function exampleRequests(session: Session, operation: FuzzOperation): FuzzRequest[] {
  const base = baseParts(session, operation);
  const requests: FuzzRequest[] = [];
  const seen = new Set<string>();
  const add = (parts: Parts, note: string) => {
    const request = requestOf(operation, parts, 'example', note);
    const key = JSON.stringify([request.path, request.query, request.headers, request.body]);
    if (seen.has(key)) return;
    seen.add(key);
    requests.push(request);
  };
  for (const parameter of operation.parameters)
    for (const { name, value } of parameter.examples) {
      const place = parameter.in === 'header' ? 'headers' : parameter.in;
      add(
        { ...base, [place]: { ...base[place], [parameter.name]: asText(value) } },
        `the ${name} of ${parameter.in} parameter ${parameter.name}`,
      );
    }
  // A body example's fields that name other resources name ones the API has, where any is known.
  for (const { name, value } of operation.body?.examples ?? [])
    add({ ...base, body: { json: withKnownIds(session, operation, value) } }, `the body example ${name}`);
  if (requests.length === 0) add(base, 'the operation with its required values');
  return requests;
}

export async function examplesPhase(session: Session): Promise<void> {
  // One operation at a time, in the document's order: an example created early can be named by a later one.
  for (const operation of session.operations.all)
    for (const request of exampleRequests(session, operation)) session.report(await session.exchange(request));
}
