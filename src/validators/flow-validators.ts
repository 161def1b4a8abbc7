import { createRequire } from "node:module";
import { validator } from "@exodus/schemasafe";
import { fullFormats } from "ajv-formats/dist/formats.js";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { banner } from "../emit/banner.js";
import { RUNTIME_ENTRY } from "../emit/runtime-exports.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import { isPlainObject } from "../json-pointer.js";
import { restateFormats } from "../spec/number-formats.js";
import { subschemasOf } from "../spec/schema-keywords.js";
import { restorePatterns, standInPatterns } from "./legacy-patterns.js";
import { ValidatorCompileError } from "./validator-compile-error.js";

/** The formats schemasafe checks itself. */
const SCHEMASAFE_FORMATS: ReadonlySet<string> = new Set(
  Object.keys((createRequire(import.meta.url)("@exodus/schemasafe/src/formats") as Formats).core),
);

interface Formats {
  readonly core: Readonly<Record<string, unknown>>;
}

/**
 * Formats checked as Ajv checks them (ajv-formats' full definitions, which serve and the spec checks
 * use), as patterns that stand alone in the generated module: every definition that is a pattern
 * (uuid, email, duration, ipv4, …), in place of schemasafe's own reading, and OpenAPI's `byte`,
 * base64 as ajv-formats reads it. Formats ajv-formats defines by code (date, time, date-time,
 * uri, regex) are schemasafe's.
 */
const OWN_FORMATS: Readonly<Record<string, RegExp>> = {
  ...Object.fromEntries(
    Object.entries(fullFormats).filter(
      (entry): entry is [string, RegExp] => entry[1] instanceof RegExp,
    ),
  ),
  byte: /^(?:[A-Za-z\d+/]{4})*(?:[A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?$/,
};

/** OpenAPI's formats that check nothing (ajv-formats accepts every string for them). */
const ANNOTATIONS: ReadonlySet<string> = new Set(["password", "binary"]);

/**
 * A string format as the validators check it: by schemasafe, or by OWN_FORMATS; OpenAPI's
 * annotations are left out. The number formats (`int32`, `int64`, `float`, `double`) become the
 * checks Ajv makes (`restateFormats`). Any other format is kept, for `unknownFormats` to refuse.
 */
function schemasafeFormat(name: string): string | undefined {
  return ANNOTATIONS.has(name) ? undefined : name;
}

/**
 * The formats of a flow's schema document (after `restateFormats`) that neither schemasafe nor
 * OWN_FORMATS checks, each with where it is in its schema (the flow's input or output, or a
 * component it reaches): all of them, so that one run names every one.
 */
function unknownFormatsIn(document: unknown): string[] {
  if (!isPlainObject(document)) return [];
  const { $defs: defs, ...root } = document;
  return [
    ...unknownFormats(root),
    ...(isPlainObject(defs) ? Object.values(defs).flatMap((def) => unknownFormats(def)) : []),
  ];
}

function unknownFormats(schema: unknown, pointer = ""): string[] {
  if (!isPlainObject(schema)) return [];
  const { format } = schema;
  const own =
    typeof format === "string" &&
    !SCHEMASAFE_FORMATS.has(format) &&
    !Object.hasOwn(OWN_FORMATS, format)
      ? [`"${format}" at #${pointer}`]
      : [];
  return [
    ...own,
    ...subschemasOf(schema, pointer).flatMap((sub) => unknownFormats(sub.schema, sub.pointer)),
  ];
}

/**
 * `<flow>.validators.ts`: the flow's input and output JSON Schemas compiled by
 * @exodus/schemasafe into standalone JavaScript, so checking needs no schema compiler at run
 * time. The code is plain JavaScript, hence `@ts-nocheck`; `validatorFor` (templates/validation.ts)
 * gives it the runtime's `Validate` type and turns its errors into JSON pointers and messages.
 *
 * @example
 * const text = emitFlowValidators(model, flow);
 */
export function emitFlowValidators(model: ProjectModel, flow: FlowModel): string {
  const compile = (which: "input" | "output") => {
    try {
      const document = restateFormats(flowSchemaDocument(model, flow, which), schemasafeFormat);
      const unknown = unknownFormatsIn(document);
      if (unknown.length > 0)
        throw new Error(
          `Unrecognized format${unknown.length === 1 ? "" : "s"} used: ${unknown.join(", ")}`,
        );
      const { schema, standIns } = standInPatterns(document);
      const validate = validator(schema as Parameters<typeof validator>[0], {
        formats: OWN_FORMATS,
        includeErrors: true,
        // OpenAPI's annotations (example, externalDocs, xml) are not JSON Schema's; the spec
        // checks have already refused keywords that neither defines.
        allowUnusedKeywords: true,
        allErrors: true,
        $schemaDefault: "https://json-schema.org/draft/2020-12/schema",
      });
      return restorePatterns(validate.toModule(), standIns);
    } catch (error) {
      throw new ValidatorCompileError(
        flow,
        which,
        error instanceof Error ? error.message : String(error),
      );
    }
  };
  const depth = flow.modulePath.split("/").length - 1;
  return [
    banner(`the spec ${flow.specPath}`),
    "// @ts-nocheck: JavaScript generated by @exodus/schemasafe from the flow's JSON Schemas.",
    "",
    `import type { FlowValidators } from "${"../".repeat(depth)}${RUNTIME_ENTRY}";`,
    `import { validatorFor } from "${"../".repeat(depth)}validation.js";`,
    "",
    `const input = ${compile("input")};`,
    "",
    `const output = ${compile("output")};`,
    "",
    `/** Checks values against the input and output schemas of \`${flow.id}\`. */`,
    // Typed, so that declarations made file by file (`isolatedDeclarations`) know it.
    `export const ${flow.names.validators}: FlowValidators = { input: validatorFor(input), output: validatorFor(output) };`,
    "",
  ].join("\n");
}
