// References between collections (`x-references`): a field that names an item of another
// collection by its id. Each store looks the named item up inside the write's own transaction,
// so a write naming an item and that item's removal cannot both succeed.
import type { Collection, CollectionField, ReferencedCollection } from '../../contract/collections.ts';
import { type ApiError, errors } from '../errors.ts';

/** A reference a write makes: the field, the collection it names an item of, and the id. */
export interface Reference {
  field: CollectionField;
  target: ReferencedCollection;
  id: number;
}

/**
 * The references `fields` make that the store must find: every reference field with a value, on a
 * create; on a change (`before` given), only those whose value it changes.
 */
export function referencesOf(
  collection: Collection,
  fields: Record<string, unknown>,
  before?: Record<string, unknown>,
): Reference[] {
  const references: Reference[] = [];
  for (const field of collection.fields) {
    const id = fields[field.name];
    if (field.references === undefined || typeof id !== 'number') continue;
    if (before !== undefined && before[field.name] === id) continue;
    references.push({ field, target: field.references, id });
  }
  return references;
}

/** The answer to a write whose reference names no item: 400 validation_failed, naming the field. */
export function missingReference({ field, target, id }: Reference): ApiError {
  return errors.missingReference(field.name, target.noun, id);
}
