/**
 * A precondition the operator has to fix before the command can run (no database at the path,
 * a backup file that exists already): answered with its message on one line and exit code 2.
 */
export class Refusal extends Error {
  override readonly name = 'Refusal';
}
