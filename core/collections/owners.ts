// Collections whose items belong to someone (`x-owned-by: key-line`): each owner sees, changes and
// removes its own items alone, and may have at most the create's `x-owner-limit` of them. The
// owner is stored beside the item's fields (`keyLine`, never answered); another owner's item is
// not found, as an item that does not exist.
import type { Collection, ItemIdentity, OwnerLimit } from '../../contract/collections.ts';
import { type ApiError, type ErrorCode, errors } from '../errors.ts';
import type { AppContext } from '../http-types.ts';
import { toBase64Url } from '../pagination/base64url.ts';

/** The stored field that holds an item's owner, by the kind of owner: the key line's number. */
export const OWNER_FIELD = { 'key-line': 'keyLine' } as const;

/** The owner of what a request writes and reads in `collection`: the number of its API key's line. */
export function requestOwner(c: AppContext, collection: Collection): number {
  const key = c.get('caller').apiKey;
  // requireApiKey has refused a request without one.
  if (key === undefined) throw new Error(`${collection.noun} items were asked for without an API key.`);
  return key.lineage;
}

/** The 409 of a create beyond the owner's `x-owner-limit`, as the create's answers declare it. */
export function ownerLimitReached({ noun }: Collection, { code }: OwnerLimit): ApiError {
  // contract/collections.ts has checked that the contract declares the code, with 409.
  return errors.ownerLimitReached(code as ErrorCode, noun);
}

/** A new random id in the form the contract gives (`we_` and 22 base64url characters): 6 random bits a character. */
export function randomItemId(identity: Extract<ItemIdentity, { type: 'string' }>): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil((identity.length * 6) / 8)));
  return identity.prefix + toBase64Url(bytes).slice(0, identity.length);
}
