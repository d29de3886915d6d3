// The contract's events, as its top-level `webhooks` declares them: each webhook's `post` body is
// the Standard Webhooks envelope whose `type` is a `const` (`pet.created`), with its example; and
// how the service delivers them (`x-webhook-delivery`: the timeout and the waits before retries).
// Their shape is checked when the contract is linted (scripts/lint/rules-as-data.js).
import { type JsonObject, type JsonSchema, resolveRef } from './document.ts';

export interface WebhookDelivery {
  /** The most an endpoint may take to answer an attempt. */
  timeoutSeconds: number;
  /** The wait before each retry after a failed attempt, counted from that attempt; then the delivery has failed. */
  retryDelaysSeconds: number[];
}

export interface WebhookEvent {
  /** The webhook's name in the contract: `petCreated`. */
  name: string;
  /** The envelope's `type`: `pet.created`. */
  type: string;
  /** The first named example of the envelope. */
  example: unknown;
  /** The webhook's `post`, the request the service sends, as the document writes it. */
  definition: JsonObject;
}

/** `x-webhook-delivery` of the contract's root. */
export function webhookDelivery(document: object): WebhookDelivery {
  const delivery = (document as JsonObject)['x-webhook-delivery'] as WebhookDelivery | undefined;
  if (delivery === undefined) throw new Error('The contract declares no x-webhook-delivery.');
  return delivery;
}

/** Every event of the contract's `webhooks`, in its order. */
export function webhookEvents(document: object): WebhookEvent[] {
  const webhooks = ((document as JsonObject).webhooks ?? {}) as Record<string, unknown>;
  return Object.entries(webhooks).map(([name, node]) => {
    const post = resolveRef<JsonObject>(document, node).post as JsonObject | undefined;
    const body = resolveRef<JsonObject>(document, post?.requestBody);
    const media = (body.content as Record<string, JsonObject> | undefined)?.['application/json'];
    const schema = resolveRef<JsonSchema>(document, media?.schema);
    const properties = schema.properties as Record<string, JsonSchema> | undefined;
    const type = resolveRef<JsonSchema>(document, properties?.type).const;
    if (typeof type !== 'string') throw new Error(`The webhook ${name} has no body whose \`type\` is a const.`);
    const examples = Object.values((media?.examples ?? {}) as Record<string, unknown>);
    const example = examples.length > 0 ? resolveRef<JsonObject>(document, examples[0]).value : undefined;
    return { name, type, example, definition: post as JsonObject };
  });
}
