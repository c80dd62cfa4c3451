/**
 * The error of a call's state touched beyond what the call read. The source answers that call again
 * from the whole revision's records: slower, never a different answer.
 */

/** What a call's state did not read. */
export class NotRead extends Error {
  override readonly name = 'NotRead';
}

/**
 * Throw `NotRead` for `what`.
 *
 * @param what - what was not read, for the message.
 */
export const notRead = (what: string): never => {
  throw new NotRead(`a stored source: ${what} was not read for this call`);
};
