/**
 * Builders for the parts the six tools' JSON Schemas share. Every object closes with
 * `additionalProperties: false` (except `frontmatter`, an arbitrary JSON object) and every property
 * carries a `description`.
 *
 * @module
 */
import type {
  JsonObject,
  JsonSchema,
  JsonValue,
  KnowledgeReadActions,
  KnowledgeVersionInfo,
} from '../../types.js';

/**
 * A property an object may leave out: `objectSchema` writes its schema among the `properties` and
 * leaves its name out of `required`. Made by `optional`.
 */
export class OptionalProperty {
  /** The property's schema. */
  readonly schema: JsonSchema;
  // A brand: a plain object of the same shape is not an `OptionalProperty`.
  readonly #optional = true;

  /** @param schema - the property's schema. */
  constructor(schema: JsonSchema) {
    this.schema = schema;
  }

  /** Whether `value` was made by `optional` (not a schema). */
  static is(value: unknown): value is OptionalProperty {
    return typeof value === 'object' && value !== null && #optional in value;
  }
}

/**
 * Marks a property of `objectSchema` optional: left out of `required`.
 *
 * @param schema - the property's schema.
 */
export function optional(schema: JsonSchema): OptionalProperty {
  return new OptionalProperty(schema);
}

/**
 * The `properties` of the schema of the TypeScript type `T`: one schema for each property of `T`, no
 * other; a property `T` may leave out (`key?:`) wrapped in `optional`, every other one plain. So a field
 * added to `T` without a schema, a schema without a field, or a property whose optionality differs
 * from `T`'s is a compile error.
 */
export type PropertySchemas<T> = {
  readonly [K in keyof T]-?: object extends Pick<T, K> ? OptionalProperty : JsonSchema;
};

/**
 * The closed object schema of the TypeScript type `T`: `required` names every property not wrapped in
 * `optional`, in the order of `properties`. `T` must be named: it is not inferred from the properties
 * (without it, no property is allowed).
 *
 * @typeParam T - the TypeScript type the schema describes.
 * @param description - the object's description.
 * @param properties - a schema for each property of `T` (`PropertySchemas`).
 * @example
 * ```ts
 * objectSchema<{ readonly id: string; readonly note?: string }>('A thing.', {
 *   id: typed('string', 'Its ID.'),
 *   note: optional(typed('string', 'A note.')),
 * }); // required: ['id']
 * ```
 */
export function objectSchema<T = never>(
  description: string,
  properties: PropertySchemas<NoInfer<T>>,
): JsonSchema;
/**
 * A closed object schema of properties not known until run time (a tool's arguments, another
 * schema's properties extended): `required` lists the required properties only.
 *
 * @param description - the object's description.
 * @param properties - the property schemas.
 * @param required - the names of the required properties.
 */
export function objectSchema(
  description: string,
  properties: JsonObject,
  required: readonly string[],
): JsonSchema;
export function objectSchema(
  description: string,
  properties: Readonly<Record<string, JsonValue | OptionalProperty>>,
  required?: readonly string[],
): JsonSchema {
  const schemas: Record<string, JsonValue> = {};
  const names: string[] = [];
  for (const [name, property] of Object.entries(properties)) {
    const optional = OptionalProperty.is(property);
    schemas[name] = optional ? property.schema : property;
    if (!optional) names.push(name);
  }
  return {
    type: 'object',
    description,
    properties: schemas,
    required: [...(required ?? names)],
    additionalProperties: false,
  };
}

/** A plain property of one JSON type. */
export function typed(
  type: 'string' | 'integer' | 'number' | 'boolean',
  description: string,
): JsonSchema {
  return { type, description };
}

/** A property of one JSON type that also accepts `null`. */
export function nullable(
  type: 'string' | 'integer' | 'boolean' | 'array',
  description: string,
): JsonSchema {
  return { type: [type, 'null'], description };
}

/**
 * An optional input integer in `minimum..maximum`; absent (or `null`) means the default. Plain
 * `"type": "integer"`, so clients that coerce by schema type (the MCP Inspector) send a number; the
 * strict variant for OpenAI adds `null` (`toStrictSchema`).
 */
export function optionalRange(
  minimum: number,
  maximum: number,
  fallback: number,
  description: string,
): JsonSchema {
  return {
    type: 'integer',
    minimum,
    maximum,
    description: `${description} ${minimum}..${maximum}, default ${fallback}.`,
  };
}

/** An optional input enum; `null` means the default. */
export function nullableEnum(
  values: readonly string[],
  fallback: string,
  description: string,
): JsonSchema {
  return {
    type: ['string', 'null'],
    enum: [...values, null],
    description: `${description} Default ${fallback}.`,
  };
}

/** An enum of strings. */
export function stringEnum(values: readonly string[], description: string): JsonSchema {
  return { type: 'string', enum: [...values], description };
}

/** An array of `items`. */
export function arrayOf(items: JsonSchema, description: string): JsonSchema {
  return { type: 'array', items, description };
}

/** The output `nextCursor`. */
export const NEXT_CURSOR: JsonSchema = nullable(
  'string',
  'Pass as `cursor`, with the same other parameters, for the next page; null on the last page.',
);

/** `cursorRestarted`: present (and `true`) only when a remote source restarted a stale cursor. */
export const CURSOR_RESTARTED: JsonSchema = {
  type: 'boolean',
  enum: [true],
  description:
    'Present only when the cursor given was stale: this is the first page of the new revision.',
};

/** `activeContentRevision`: a string or an integer. */
export const REVISION: JsonSchema = {
  type: ['string', 'integer'],
  description: 'The knowledge base content version this answer was computed on.',
};

/**
 * The input `version` every tool takes: a version label, or `null`/absent for the default version.
 * The one schema of the argument (`VERSION_ARG` pairs it with its rule). Its description is short:
 * it is listed six times in `tools/list`, and the root `list_tree`'s `versions` says where labels
 * come from.
 */
export function versionInput(): JsonSchema {
  return nullable('string', 'Version label; null: the default.');
}

/** The output `version`: the label of the version that answered (beside `activeContentRevision`). */
export const VERSION: JsonSchema = typed(
  'string',
  'The version of the knowledge base this answer is from, such as "3.x" ("current" when it names none).',
);

/** The output `publishedAt`: when this revision was published or loaded (ISO 8601). */
export const PUBLISHED_AT: JsonSchema = typed(
  'string',
  'When this revision was published (a store) or loaded (a folder), ISO 8601.',
);

/**
 * The properties that open every output answered from one version (`get_file`, `read_file`'s `file`,
 * `list_tree`, `search_files`, `expand_graph`): spread first into its `properties`.
 */
export const ANSWERED_FROM = {
  activeContentRevision: REVISION,
  version: VERSION,
  publishedAt: PUBLISHED_AT,
} as const;

/** The root `list_tree`'s `versions`: every version of the knowledge base. */
export const VERSIONS: JsonSchema = {
  type: 'array',
  description:
    'Only on the root listing (no parentPath, no cursor): every version of the knowledge base; pass one as `version` to any tool.',
  items: objectSchema<KnowledgeVersionInfo>('A version.', {
    version: typed('string', 'The version label.'),
    default: typed('boolean', 'Whether a call without `version` answers from it.'),
    activeContentRevision: {
      type: ['string', 'integer'],
      description: 'The content revision that version serves.',
    },
    publishedAt: PUBLISHED_AT,
  }),
};

/** `readActions` with the keys a record may carry (all optional). */
export const READ_ACTIONS: JsonSchema = objectSchema<KnowledgeReadActions>(
  'URL paths of the HTTP routes that serve this record, relative to the knowledge base, for HTTP clients. With these tools (over MCP too), pass fileId or path to read_file instead of fetching them.',
  {
    fileContentById: optional(typed('string', 'Route reading the file content by fileId.')),
    fileContentByPath: optional(typed('string', 'Route reading the file content by path.')),
    relatedFilesById: optional(typed('string', 'Route listing related files (pages only).')),
    graphExpansionByFileId: optional(
      typed('string', 'Route expanding the relationship graph from this page (pages only).'),
    ),
    treeByParentPath: optional(typed('string', 'Route listing this directory (directories only).')),
  },
);

/** `frontmatter`: any JSON object (`tags` is an array of strings). */
export const FRONTMATTER: JsonSchema = {
  type: 'object',
  description:
    'The page front matter, a JSON object (`tags` is an array of strings); {} for navigation files.',
  additionalProperties: true,
};

/** `fileKind`. */
export const FILE_KIND: JsonSchema = stringEnum(
  ['page', 'index', 'graph'],
  '`page` is answer evidence; `index` and `graph` are navigation files for discovery only.',
);

/** `contentAvailable` of a listed file (`list_tree`, `get_file`), which may be `unavailable`. */
export const CONTENT_AVAILABLE: JsonSchema = typed(
  'boolean',
  'Whether the content can be read: false only when generatedOutputStatus is "unavailable".',
);

/** `state` of a file (seed 002). */
export const FILE_STATE: JsonSchema = stringEnum(
  ['available', 'unavailable'],
  '`available` when a version of the file is served; `unavailable` when none loaded cleanly.',
);

/** `generatedOutputStatus` of a file (seed 002). */
export const GENERATED_OUTPUT_STATUS: JsonSchema = stringEnum(
  ['current_available', 'previous_available', 'unavailable'],
  '`current_available`: the file as it is now is served. `previous_available`: its newest version has problems, so its last good version is served. `unavailable`: no version can be read.',
);

/** `relationType`. */
export const RELATION_TYPE: JsonSchema = stringEnum(
  ['links_to', 'linked_from', 'shared_tag'],
  'Kind of relationship.',
);

/** `direction`. */
export const DIRECTION: JsonSchema = stringEnum(
  ['outgoing', 'incoming'],
  'Which way the relationship points, seen from the file asked about.',
);

/** `sourceFileId`: the page's stable ID, null for navigation files. */
export const SOURCE_FILE_ID: JsonSchema = nullable(
  'string',
  'The stable source file ID (equal to fileId for pages); null for navigation files.',
);

/**
 * The cursor policy sentence that ends the description of every paged tool (the `cursor` argument
 * itself says only what to pass: the policy is written once per tool).
 */
export const CURSOR_ADVICE =
  'Follow nextCursor alone or with the same other parameters; on STALE_CURSOR restart without the cursor.';

/**
 * `2000` as `2,000`, for descriptions.
 *
 * @param value - a non-negative integer.
 */
export function thousands(value: number): string {
  const digits = String(value);
  let out = '';
  for (let i = 0; i < digits.length; i++) {
    if (i > 0 && (digits.length - i) % 3 === 0) out += ',';
    out += digits[i];
  }
  return out;
}
