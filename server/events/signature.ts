// The Standard Webhooks signature: `v1,` and the base64 HMAC-SHA256, under the secret's decoded
// bytes, of `{webhook-id}.{webhook-timestamp}.{body}`.
import { createHmac } from 'node:crypto';

const SECRET_PREFIX = 'whsec_';

/** The `webhook-signature` of one attempt; `timestamp` in whole Unix seconds, `body` exactly as sent. */
export function webhookSignature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
