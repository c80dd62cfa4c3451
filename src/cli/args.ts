/** Argument parsing on `node:util` `parseArgs`, with errors that name the command and its `--help`. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliExit } from './io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed values and positionals of one command. */
export interface ParsedArgs {
  readonly values: { readonly [name: string]: string | boolean | (string | boolean)[] | undefined };
  readonly positionals: readonly string[];
}

/**
 * Parses `argv` for `command` strictly: unknown options and missing values are usage errors.
 *
 * @throws {CliExit} exit code 2 with a one-line reason.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  options: Options,
  maxPositionals: number,
): ParsedArgs {
  let parsed: ParsedArgs;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { ...options, help: { type: 'boolean', short: 'h' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    let reason = (error instanceof Error ? error.message : String(error))
      .split('\n')[0]!
      .replace(/\. To specify a positional argument.*$/, '.');
    if (!/[.!?]$/.test(reason)) reason += '.';
    throw new CliExit(
      `knowledge-kit ${command}: ${reason} Run \`knowledge-kit ${command} --help\`.`,
    );
  }
  if (parsed.values['help'] !== true && parsed.positionals.length > maxPositionals) {
    throw new CliExit(
      `knowledge-kit ${command}: unexpected argument \`${parsed.positionals[maxPositionals]}\`. Run \`knowledge-kit ${command} --help\`.`,
    );
  }
  return parsed;
}

/** A whole number from an option, in `[min, max]`, or a usage error. */
export function integerOption(
  command: string,
  name: string,
  value: unknown,
  min: number,
  max: number,
): number | undefined {
  if (value === undefined) return undefined;
  const text = String(value);
  const number = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number) || number < min || number > max) {
    throw new CliExit(
      `knowledge-kit ${command}: --${name} must be a whole number from ${min} to ${max}, not \`${text}\`.`,
    );
  }
  return number;
}

/** Comma-separated values of a repeatable option, in order, without empty ones. */
export function listOption(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return values
    .flatMap((v) => String(v).split(','))
    .map((v) => v.trim())
    .filter((v) => v !== '');
}
