import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Format } from "ajv";
import type { Ajv2020 } from "ajv/dist/2020.js";
import { isPlainObject } from "../json-pointer.js";
import { compilePattern } from "./pattern-flags.js";
import { mapSubschemas } from "./schema-keywords.js";

const require = createRequire(import.meta.url);

/**
 * Ajv and ajv-formats (CommonJS), loaded with the first Ajv made: a run that checks no spec
 * (every file cached) never loads them.
 */
function ajvPackages(): {
  readonly Ajv2020: typeof Ajv2020;
  readonly addFormats: (ajv: Ajv2020) => Ajv2020;
} {
  const { Ajv2020: ajv } = require("ajv/dist/2020.js") as typeof import("ajv/dist/2020.js");
  return { Ajv2020: ajv, addFormats: require("ajv-formats") as (ajv: Ajv2020) => Ajv2020 };
}

export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** The schema that spec files themselves follow; shipped so editors can validate them too. */
export const FLOW_SPEC_SCHEMA = JSON.parse(
  readFileSync(new URL("../../schema/flow-spec.schema.json", import.meta.url), "utf8"),
) as Record<string, unknown>;

/**
 * One Ajv per run for a project's schemas: they are per-run state, never module state (only the
 * fixed checks of spec files themselves are compiled ahead of time: spec-file-validators.ts). `optimize: false` skips
 * Ajv's pass over generated code, for validators that run once: the pass costs more than it saves.
 * `verbose: true` keeps each failing keyword's schema value and data on its error (`flowgen verify`).
 * `ownProperties`: a property counts only when the value has it itself; without it Ajv reads
 * `value.constructor` or `value.toString` for properties of those names and finds the functions
 * every object inherits, so `{}` lacks no required `toString` and fails `"constructor": { "type": "string" }`.
 */
export function createAjv(
  options: {
    readonly optimize?: boolean;
    readonly verbose?: boolean;
    /** How `pattern`s compile; by default `new RegExp` with `u` when the pattern takes it. */
    readonly regExp?: (source: string, flags: string) => { test(value: string): boolean };
    /** The `format`s asserted, by name; by default ajv-formats' full ones. */
    readonly formats?: Readonly<Record<string, Format>>;
    /**
     * Whether each schema is checked against the 2020-12 meta-schema before it compiles (default
     * true). False for schemas the run's spec checks have already checked: the check compiles the
     * meta-schema, once for each Ajv.
     */
    readonly validateSchema?: boolean;
  } = {},
): Ajv2020 {
  const regExp = options.regExp ?? compilePattern;
  // strict: false and no logger: formats Ajv does not know (unix-time, …) are annotations, as in OpenAPI, not noise.
  const { Ajv2020, addFormats } = ajvPackages();
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    validateFormats: true,
    logger: false,
    verbose: options.verbose ?? false,
    validateSchema: options.validateSchema ?? true,
    ownProperties: true,
    // A decimal divisor (`multipleOf: 0.01`) counts 0.07 as a multiple, as JSON Schema does: the
    // division's float error is let through up to 1e-9.
    multipleOfPrecision: 9,
    // A pattern that compiles only without the u flag is used without it (pattern-flags.ts).
    code: {
      optimize: options.optimize ?? true,
      // Ajv writes `code` into standalone validators only, which flowgen does not make with Ajv.
      regExp: Object.assign((source: string, flags: string) => regExp(source, flags), {
        code: "compilePattern",
      }),
    },
  });
  if (options.formats === undefined) addFormats(ajv);
  else for (const [name, format] of Object.entries(options.formats)) ajv.addFormat(name, format);
  return ajv;
}

/** The pattern that states `properties.__proto__` again for Ajv. */
const PROTO_PATTERN = "^__proto__$";

/**
 * The schema as Ajv should get it. Ajv drops a property named `__proto__` from `properties`
 * (against prototype pollution of its own), so such a property would go unchecked and count as
 * additional. The copy restates each one as `patternProperties` `^__proto__$`, which Ajv applies
 * to a value's own `__proto__` like any other property; `properties` stays as it was, so `$ref`s
 * into it still resolve. Schemas without the name are returned as they are.
 *
 * @example
 * ajv.compile(schemaForAjv({ properties: { __proto__: { type: "string" } }, additionalProperties: false }));
 */
export function schemaForAjv<T>(schema: T): T {
  if (!JSON.stringify(schema).includes('"__proto__"')) return schema;
  return restateProtoProperties(schema) as T;
}

function restateProtoProperties(schema: unknown): unknown {
  if (!isPlainObject(schema)) return schema;
  const mapped = mapSubschemas(schema, restateProtoProperties);
  const { properties, patternProperties } = mapped;
  if (!isPlainObject(properties) || !Object.hasOwn(properties, "__proto__")) return mapped;
  const patterns = isPlainObject(patternProperties) ? patternProperties : {};
  const stated = Object.hasOwn(patterns, PROTO_PATTERN) ? patterns[PROTO_PATTERN] : undefined;
  const proto = properties["__proto__"];
  return {
    ...mapped,
    patternProperties: {
      ...patterns,
      [PROTO_PATTERN]: stated === undefined ? proto : { allOf: [stated, proto] },
    },
  };
}
