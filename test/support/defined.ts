/**
 * `value` when it is present; otherwise the test fails right here, saying what was missing. The
 * checked form of a non-null assertion (`value!`), which would let a test fail later, and vaguely.
 */
export function defined<T>(value: T, what: string): NonNullable<T> {
  if (value === undefined || value === null) throw new Error(`Expected ${what}, but there is none (${value}).`);
  return value;
}
