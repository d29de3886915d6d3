// Redoc's search indexes an operation's summary, description, path and parameters, but not its
// operationId, the name the generated types, the server's handlers and the client's users know it
// by. The page's own copy of the contract therefore ends each operation's description with its id,
// so a reader sees it and the search finds it. The download copies stay the bundle as generated.
import { operationObjects } from '../../contract/document.ts';

export function withOperationIds<T extends object>(document: T): T {
  const copy = structuredClone(document);
  for (const { definition: operation } of operationObjects(copy)) {
    if (typeof operation.operationId !== 'string') continue;
    const note = `Operation ID: \`${operation.operationId}\``;
    operation.description =
      typeof operation.description === 'string' ? `${operation.description.trimEnd()}\n\n${note}` : note;
  }
  return copy;
}
