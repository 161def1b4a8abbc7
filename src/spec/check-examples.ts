import type { Ajv2020 } from "ajv/dist/2020.js";
import { getAtPointer, isPlainObject, joinPointer } from "../json-pointer.js";
import { yamlBooleanHint } from "./describe-ajv-errors.js";
import { createAjv, schemaForAjv } from "./ajv.js";
import { createExampleScreen, type ExampleScreen } from "./example-screen.js";
import { fileUri } from "./file-uri.js";
import { readNullable } from "./nullable.js";
import { parseDocument } from "./parse-document.js";
import type { SchemaFinding, SpecIndex } from "./schema-refs.js";

/** A spec file's path under the specs folder and its text. */
export interface SpecText {
  readonly relPath: string;
  readonly text: string;
}

/**
 * The example checks of some flows as a task for another thread: the texts of the flow files and
 * of every shared file (a schema may reach any), parsed there as the checks parsed them here.
 */
export interface ExamplesTask {
  readonly stage: "examples";
  readonly flows: readonly SpecText[];
  readonly shared: readonly SpecText[];
}

/**
 * Runs an `ExamplesTask`: `checkAllExamples` over the files it carries. They passed every other
 * check already (`checkSpecs` defers only then).
 *
 * @example
 * const findings = runExamplesTask({ stage: "examples", flows: [{ relPath, text }], shared: [] });
 */
export function runExamplesTask(task: ExamplesTask): SchemaFinding[] {
  const files = new Map<string, unknown>();
  const read = (source: SpecText, kind: "flow" | "shared") => {
    const parsed = parseDocument(source.relPath, source.text, { checked: true });
    if (parsed.ok) files.set(source.relPath, readNullable(parsed.document.value, kind));
  };
  for (const source of task.flows) read(source, "flow");
  for (const source of task.shared) read(source, "shared");
  const flowFiles = new Set(task.flows.map((flow) => flow.relPath));
  const flows = task.flows.map(({ relPath }) => ({
    relPath,
    examples: examplesOf(files.get(relPath) as Record<string, unknown>),
  }));
  return checkAllExamples(flows, { files, flowFiles, brokenFiles: new Set() });
}

/**
 * Registers every shared schema file, and the input and output of each flow in `flows` under its
 * own base URI, so cross-file `$ref`s resolve inside Ajv and any subschema can be reached as
 * `<uri>#<pointer>`. Only the flows a check refers to: Ajv walks each schema it is given. They
 * passed the meta-schema check already: Ajv is not asked to repeat it.
 */
export function addSchemas(ajv: Ajv2020, index: SpecIndex, flows: Iterable<string>): void {
  for (const [relPath, value] of index.files) {
    if (!index.flowFiles.has(relPath) && isPlainObject(value))
      ajv.addSchema(schemaForAjv(withoutSchemaKeyword(value)), fileUri(relPath), undefined, false);
  }
  for (const relPath of flows) {
    const value = index.files.get(relPath);
    if (!isPlainObject(value)) continue;
    for (const part of ["input", "output"] as const)
      if (isPlainObject(value[part]))
        ajv.addSchema(
          schemaForAjv(withoutSchemaKeyword(value[part])),
          fileUri(relPath, part),
          undefined,
          false,
        );
  }
}

/**
 * Checks every example of the given flows against the flow's own schemas. Examples the screen
 * passes need nothing more; a flow with any other example is compiled by Ajv, which reports each
 * problem. Ajv runs without its optimizing pass: each validator runs a few times at most.
 */
export function checkAllExamples(
  flows: readonly { readonly relPath: string; readonly examples: readonly unknown[] }[],
  index: SpecIndex,
): SchemaFinding[] {
  const withExamples = flows.filter((flow) => flow.examples.length > 0).map((f) => f.relPath);
  const screen = createExampleScreen(index, withExamples);
  const doubtful = withExamples.filter((relPath) => {
    const spec = index.files.get(relPath) as Record<string, unknown>;
    return !examplesOf(spec).every((example) => passesScreen(screen, relPath, example));
  });
  if (doubtful.length === 0) return [];
  // The flows' schemas passed the spec checks, the meta-schema included.
  const ajv = createAjv({ optimize: false, validateSchema: false });
  addSchemas(ajv, index, doubtful);
  return doubtful.flatMap((relPath) =>
    checkExamples(ajv, relPath, index.files.get(relPath) as Record<string, unknown>),
  );
}

function examplesOf(spec: Record<string, unknown> | undefined): unknown[] {
  return Array.isArray(spec?.examples) ? spec.examples : [];
}

function passesScreen(screen: ExampleScreen, relPath: string, example: unknown): boolean {
  if (!isPlainObject(example)) return false;
  return (["input", "output"] as const).every(
    (part) => !Object.hasOwn(example, part) || screen(relPath, part, example[part]),
  );
}

/**
 * Checks each `examples[i].input` / `.output` of one flow against the flow's own schemas. The
 * query in the base URI keeps input and output apart while relative paths still resolve.
 */
export function checkExamples(
  ajv: Ajv2020,
  relPath: string,
  spec: Record<string, unknown>,
): SchemaFinding[] {
  const examples = spec.examples;
  if (!Array.isArray(examples) || examples.length === 0) return [];
  const findings: SchemaFinding[] = [];
  for (const part of ["input", "output"] as const) {
    const schema = spec[part];
    if (!isPlainObject(schema)) continue;
    const validate = ajv.getSchema(fileUri(relPath, part));
    if (validate === undefined) continue;
    examples.forEach((example: unknown, i) => {
      if (!isPlainObject(example) || !Object.hasOwn(example, part)) return;
      if (validate(example[part])) return;
      const label = typeof example.name === "string" ? `example "${example.name}"` : `example ${i}`;
      for (const error of validate.errors ?? []) {
        const pointer = joinPointer("", "examples", i, part) + error.instancePath;
        const value = getAtPointer(example[part], error.instancePath);
        const hint = yamlBooleanHint(relPath, value, error.params);
        findings.push({
          code: "invalid-example",
          relPath,
          pointer,
          message: `${label}: ${part}${error.instancePath} ${error.message ?? "is invalid"}${describeParams(error.params)}; ${hint ?? `fix the example or the ${part} schema`}`,
        });
      }
    });
  }
  return findings;
}

export function describeParams(params: Record<string, unknown>): string {
  if (Array.isArray(params.allowedValues))
    return ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(", ")})`;
  if (Object.hasOwn(params, "allowedValue")) return ` (${JSON.stringify(params.allowedValue)})`;
  if (typeof params.additionalProperty === "string") return ` ("${params.additionalProperty}")`;
  return "";
}

function withoutSchemaKeyword(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = schema;
  return rest;
}
