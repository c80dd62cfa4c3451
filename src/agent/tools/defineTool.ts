/**
 * `defineTool`: the one declaration of a knowledge tool: its texts, arguments and schemas, its body
 * (`run`, the answer from a source's state) and its read plan (`reads`, what a stored source fetches
 * for the call). Everything else about a tool (its JSON Schemas, the source's input checks and
 * methods, the `KnowledgeSource` type, the HTTP routes and their parameters, the client's requests
 * and the forwarding sources) is derived from the definitions in the registry (`registry.ts`).
 *
 * @module
 */
import type { KnowledgeToolErrorCode } from '../errors/codes.js';
import type { JsonSchema } from '../types.js';
import type { CallScope } from '../source/callScope.js';
import type { ReadPlan } from '../source/readPlan.js';
import type { CheckedInput } from '../source/readInput.js';
import type { SourceState } from '../source/state.js';
import {
  type ArgSpec,
  type ArgSpecs,
  type FieldRule,
  inputSchemaOf,
  rulesOf,
  VERSION_ARG,
} from './args.js';
import { deepFreeze } from '../../shared/deepFreeze.js';

/** Which top-level keys a successful answer must have, and of what type (the client's check). */
export type ResponseShape = Readonly<Record<string, 'array' | 'object' | 'string'>>;

/** One HTTP route of a tool: a `GET` under `/knowledge-bases/{knowledgeBaseId}`. */
export interface ToolRouteSpec<RouteId extends string = string> {
  /** The key of the route's query rules (`ROUTE_PARAMS`), such as `search`. */
  readonly id: RouteId;
  /** The path pattern, Hono-style: `:name` segments are arguments taken from the path. */
  readonly path: string;
  /** The arguments taken from the query string, in URL order; default every argument not in the path. */
  readonly query?: readonly string[];
  /** Query arguments this route requires (a 400 names the first one missing). */
  readonly required?: readonly string[];
  /** A content route: it answers `text/markdown` when the request prefers it. */
  readonly content?: true;
  /**
   * Its place in the route list of `shared/spec/http.md`, which the handler's 404 answer repeats;
   * routes without one are listed after, in registry order.
   */
  readonly listed?: number;
}

/**
 * The checked arguments of one call of a tool whose input type is `Input`: each field present as its
 * tool's rules let it through (a `trimmed` string trimmed), absent fields missing.
 */
// `Input` is carried for `KnowledgeSource`'s parameter types (inferred from the body's signature).
export type ToolArgs<Input> = CheckedInput & { readonly [Field in keyof Input]?: unknown };

/** What one tool's declaration gives. */
export interface ToolDeclaration<
  Name extends string,
  Method extends string,
  RouteId extends string = string,
  Input = unknown,
  Output = unknown,
  Optional extends boolean = false,
> {
  /** The seed's name, such as `search_files`. */
  readonly name: Name;
  /** The `KnowledgeSource` method behind it, such as `searchFiles`. */
  readonly method: Method;
  readonly title: string;
  /** When to use it, what it returns and what to do next. */
  readonly description: string;
  /**
   * The description of the input schema: only for a rule across arguments that no property says
   * (each argument is described once, on its property).
   */
  readonly inputDescription?: string;
  /** The tool's own arguments (`defineTool` adds `version`, which every tool takes). */
  readonly args: ArgSpecs;
  readonly outputSchema: JsonSchema;
  /** Whether the source method may be called with no input at all (`listTree()`). */
  readonly inputOptional?: Optional;
  /**
   * The tool's answer from a source's state, the call's scope and its checked arguments (the input
   * read by `rules` when the body is called). Throws `scope.fail(…)` for a refusal.
   */
  run(state: SourceState, scope: CallScope, args: ToolArgs<Input>): Output | Promise<Output>;
  /**
   * What a stored source reads for a call with these arguments (the raw input, with a cursor's
   * parameters filled in, unchecked). Without it a stored source reads the whole revision.
   */
  reads?(args: Readonly<Record<string, unknown>>): ReadPlan;
  readonly http: {
    /** The routes, in the order the client tries them: the first whose path arguments are all given. */
    readonly routes: readonly ToolRouteSpec<RouteId>[];
    /** The code of a request over the handler's time limit; default `TIMEOUT`. */
    readonly timeoutCode?: KnowledgeToolErrorCode;
    /** The source call's signal also aborts when the client hangs up (long-running calls). */
    readonly abortOnHangUp?: true;
  };
  readonly client: {
    /** What a 200 answer must look like. */
    readonly shape: ResponseShape;
    /** A check of the input before any request, for a rule the routes cannot express. */
    readonly check?: (input: Readonly<Record<string, unknown>>) => string | undefined;
  };
}

/** A tool definition: its declaration, with the derived, deep-frozen input schema and field rules. */
export interface ToolDefinition<
  Name extends string = string,
  Method extends string = string,
  RouteId extends string = string,
  Input = unknown,
  Output = unknown,
  Optional extends boolean = boolean,
> extends ToolDeclaration<Name, Method, RouteId, Input, Output, Optional> {
  readonly inputSchema: JsonSchema;
  readonly rules: Readonly<Record<string, FieldRule>>;
  /** Whether the tool pages (it takes a `cursor`): the client restarts a stale cursor once. */
  readonly paged: boolean;
}

/**
 * The argument rules of a tool whose input type is `Input`: one rule per field of `Input`, except
 * `version` (`defineTool` adds it to every tool): an input field added without its rule does not
 * compile. (A rule without a field is not refused by the type: `ArgSpecs` is open.)
 */
export type InputArgs<Input> = {
  readonly [Field in Exclude<keyof Input, 'version'>]-?: ArgSpec;
};

/**
 * Define a tool: add the `version` argument every tool takes (`VERSION_ARG`, last), derive its input
 * schema and the source's rules from the arguments, and freeze it all.
 *
 * @param declaration - the tool's name, method, texts, arguments, output schema, body (`run`), read
 *   plan (`reads`), routes and client mapping.
 * @returns the frozen definition.
 */
export function defineTool<
  const Name extends string,
  const Method extends string,
  const RouteId extends string,
  Input,
  Output,
  const Optional extends boolean = false,
>(
  declaration: ToolDeclaration<Name, Method, RouteId, Input, Output, Optional> & {
    readonly args: InputArgs<NoInfer<Input>>;
  },
): ToolDefinition<Name, Method, RouteId, Input, Output, Optional> {
  const args: ArgSpecs = { ...declaration.args, version: VERSION_ARG };
  return deepFreeze({
    ...declaration,
    args,
    inputSchema: inputSchemaOf(declaration.inputDescription, args),
    rules: rulesOf(args),
    paged: Object.hasOwn(args, 'cursor'),
  });
}
