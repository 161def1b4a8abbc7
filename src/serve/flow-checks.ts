import type { ErrorObject } from "ajv";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import { createAjv, schemaForAjv } from "../spec/ajv.js";
import { escapePointerToken } from "../json-pointer.js";
import type { ErrorDetail } from "./error-body.js";
import { linearFormats } from "./linear-formats.js";
import {
  createLinearPatterns,
  type LinearPatterns,
  type UnsupportedPattern,
} from "./linear-patterns.js";
import { useLinearUniqueItems } from "./linear-unique-items.js";

/** Checks a value against one of a flow's schemas: every violation, none when valid. */
export type Check = (value: unknown) => readonly ErrorDetail[];

/** What every valid value gets: one empty list, not a new one per call. */
const NO_PROBLEMS: readonly ErrorDetail[] = Object.freeze([]);

export interface FlowChecks {
  readonly input: Check;
  readonly output: Check;
}

/** A schema Ajv could not compile (a `pattern` that is no regular expression, say), for a spec issue. */
export interface CheckCompileFailure {
  readonly flow: FlowModel;
  readonly which: "input" | "output";
  readonly message: string;
}

/** A pattern of a flow's schema that serve's linear-time engine cannot run: values it checks are refused. */
export interface UnsupportedFlowPattern extends UnsupportedPattern {
  readonly flow: FlowModel;
  readonly which: "input" | "output";
}

/**
 * Compiles every flow's input and output schema with Ajv (all errors, formats asserted, as the
 * spec checks do), keyed by flow id; every schema that does not compile is a failure, not a throw.
 * Patterns and formats run on RE2 (linear-patterns.ts, linear-formats.ts), in time linear in the
 * request's strings; `unsupported` lists the patterns RE2 cannot run. `uniqueItems` is checked in
 * time linear in the array (linear-unique-items.ts).
 *
 * @example
 * const compiled = compileFlowChecks(model);
 * if (compiled.ok) compiled.checks.get("@acme/qa")?.input({ question: 1 }); // [{ pointer: "/question", message: "must be string" }]
 */
export function compileFlowChecks(model: ProjectModel):
  | {
      readonly ok: true;
      readonly checks: ReadonlyMap<string, FlowChecks>;
      readonly unsupported: readonly UnsupportedFlowPattern[];
    }
  | { readonly ok: false; readonly failures: readonly CheckCompileFailure[] } {
  const compiler = createCompiler();
  const checks = new Map<string, FlowChecks>();
  const failures: CheckCompileFailure[] = [];
  const unsupported: UnsupportedFlowPattern[] = [];
  const compile = (flow: FlowModel, which: "input" | "output"): Check => {
    try {
      const compiled = compiler(schemaForAjv(flowSchemaDocument(model, flow, which)));
      for (const pattern of compiled.unsupported) unsupported.push({ ...pattern, flow, which });
      return compiled.check;
    } catch (error) {
      failures.push({
        flow,
        which,
        message: error instanceof Error ? error.message : String(error),
      });
      return () => NO_PROBLEMS;
    }
  };
  for (const flow of model.flows)
    checks.set(flow.id, { input: compile(flow, "input"), output: compile(flow, "output") });
  return failures.length === 0 ? { ok: true, checks, unsupported } : { ok: false, failures };
}

/** A schema's check, and the patterns in it RE2 cannot run. */
interface CompiledSchema {
  readonly check: Check;
  readonly unsupported: readonly UnsupportedPattern[];
}

/**
 * Checks compiled in this process, by schema text: serve's starts and reloads compile again only
 * the schemas that changed. A check holds no state between calls (Ajv's `errors` are read at once).
 */
const compiledSchemas = new Map<string, CompiledSchema>();
/** Schemas remembered at most; then the memory starts over. */
const REMEMBERED_SCHEMAS = 2000;

/**
 * Compiles schemas with one Ajv, made at the first schema not compiled before, whose patterns and
 * formats run on RE2 and whose `uniqueItems` is linear. The model's schemas passed the spec
 * checks, the meta-schema included.
 */
function createCompiler(): (schema: object) => CompiledSchema {
  let compiler: Compiler | undefined;
  return (schema) => {
    const key = JSON.stringify(schema);
    const known = compiledSchemas.get(key);
    if (known !== undefined) return known;
    compiler ??= createAjvCompiler();
    const compiled = compileSchema(compiler, schema);
    if (compiledSchemas.size >= REMEMBERED_SCHEMAS) compiledSchemas.clear();
    compiledSchemas.set(key, compiled);
    return compiled;
  };
}

interface Compiler {
  readonly ajv: ReturnType<typeof createAjv>;
  readonly patterns: LinearPatterns;
}

function createAjvCompiler(): Compiler {
  const patterns = createLinearPatterns();
  const ajv = createAjv({
    regExp: patterns.compile,
    formats: linearFormats(),
    validateSchema: false,
  });
  useLinearUniqueItems(ajv);
  return { ajv, patterns };
}

function compileSchema({ ajv, patterns }: Compiler, schema: object): CompiledSchema {
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    // What a failed compile found unsupported belongs to no schema's entry.
    patterns.takeUnsupported();
    throw error;
  }
  return {
    check: (value) => (validate(value) ? NO_PROBLEMS : (validate.errors ?? []).map(toDetail)),
    unsupported: patterns.takeUnsupported(),
  };
}

/** One Ajv error as pointer + message; a missing or extra property is pointed at by name. */
function toDetail(error: ErrorObject): ErrorDetail {
  const { missingProperty, additionalProperty, allowedValues } = error.params as Record<
    string,
    unknown
  >;
  if (typeof missingProperty === "string")
    return {
      pointer: `${error.instancePath}/${escapePointerToken(missingProperty)}`,
      message: "is required",
    };
  if (typeof additionalProperty === "string")
    return {
      pointer: `${error.instancePath}/${escapePointerToken(additionalProperty)}`,
      message: "is not an allowed property",
    };
  const allowed = Array.isArray(allowedValues)
    ? `: ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}`
    : "";
  return { pointer: error.instancePath, message: `${error.message ?? "is invalid"}${allowed}` };
}
