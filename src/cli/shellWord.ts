/** Words of the commands the command line prints for its user to run next. */

/** `text` as one POSIX shell word: single quotes, each `'` written as `'\''`. */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
