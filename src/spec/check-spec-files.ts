import type { ValidateFunction } from "ajv";
import type { Issue } from "../issues.js";
import { isPlainObject } from "../json-pointer.js";
import { FLOW_SPEC_SCHEMA, JSON_SCHEMA_2020_12 } from "./ajv.js";
import { describeAjvErrors } from "./describe-ajv-errors.js";
import { checkObjectRoot } from "./object-root.js";
import type { FlowSource } from "./read-spec-files.js";
import { checkSchemaResource, type RefTarget, type SpecIndex } from "./schema-refs.js";

/** The keys a flow spec may have. */
export const SPEC_KEYS = Object.keys(FLOW_SPEC_SCHEMA.properties as object);
const EXAMPLE_KEYS = ["name", "input", "output"];

/** A problem found in a file, before it is located by line and column. */
export type Finding = { code: Issue["code"]; pointer: string; message: string };

/**
 * What is wrong in one flow spec on its own: spec keys, id, schema dialect, `$ref`s, root types.
 * Where its `$ref`s lead is added to `targets`, for the cycle check.
 *
 * @example
 * const findings = checkFlowFile(value, source, SPEC_FILE_VALIDATORS.flowFile, index, targets);
 */
export function checkFlowFile(
  value: unknown,
  source: FlowSource,
  validate: ValidateFunction,
  index: SpecIndex,
  targets: RefTarget[] = [],
): Finding[] {
  const findings: Finding[] = [];
  if (!validate(value)) {
    findings.push(
      ...describeAjvErrors(validate.errors ?? [], value, {
        schemaCode: "invalid-schema",
        isSchemaPath: (p) => /^\/(input|output)(\/|$)/.test(p),
        allowedKeys: (p) => (p === "" ? SPEC_KEYS : EXAMPLE_KEYS),
      }),
    );
  }
  if (!isPlainObject(value)) return findings;
  const id = `@${source.org}/${source.name}`;
  if (typeof value.id === "string" && value.id !== id) {
    findings.push({
      code: "id-mismatch",
      pointer: "/id",
      message: `id "${value.id}" differs from ${id}, the id this file's path gives; change the id, or move the file to ${id}.json`,
    });
  }
  for (const part of ["input", "output"] as const) {
    const resource = { relPath: source.relPath, root: `/${part}` };
    // A root of true or false is a schema the meta-schema accepts, but no object.
    if (typeof value[part] === "boolean") findings.push(...checkObjectRoot(part, resource, index));
    if (!isPlainObject(value[part])) continue;
    const { findings: schemaFindings, targets: found } = checkSchemaResource(resource, index);
    targets.push(...found);
    findings.push(...checkSchemaDialect(value[part], `/${part}`), ...schemaFindings);
    if (schemaFindings.length === 0) findings.push(...checkObjectRoot(part, resource, index));
  }
  return findings;
}

/**
 * What is wrong in one shared schema file on its own: dialect, meta-schema, `$ref`s. Where its
 * `$ref`s lead is added to `targets`, for the cycle check.
 *
 * @example
 * const findings = checkSharedFile(value, "shared/address.json", SPEC_FILE_VALIDATORS.metaSchema, index, targets);
 */
export function checkSharedFile(
  value: unknown,
  relPath: string,
  metaSchema: ValidateFunction,
  index: SpecIndex,
  targets: RefTarget[] = [],
): Finding[] {
  const dialect = checkSchemaDialect(value, "");
  if (dialect.length > 0) return dialect;
  const schema = isPlainObject(value) ? { ...value, $schema: undefined } : value;
  if (!metaSchema(schema)) {
    return describeAjvErrors(metaSchema.errors ?? [], value, {
      schemaCode: "invalid-schema",
      isSchemaPath: () => true,
    });
  }
  const { findings, targets: found } = checkSchemaResource({ relPath, root: "" }, index);
  targets.push(...found);
  return findings;
}

function checkSchemaDialect(schema: unknown, pointer: string): Finding[] {
  const dialect = isPlainObject(schema) ? schema.$schema : undefined;
  if (
    dialect === undefined ||
    dialect === JSON_SCHEMA_2020_12 ||
    dialect === `${JSON_SCHEMA_2020_12}#`
  )
    return [];
  return [
    {
      code: "invalid-schema",
      pointer: `${pointer}/$schema`,
      message: `flowgen reads JSON Schema 2020-12; set "$schema" to "${JSON_SCHEMA_2020_12}" or remove it`,
    },
  ];
}
