import type { ErrorObject } from "ajv";
import type { ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import { createAjv } from "../spec/ajv.js";
import { escapePointerToken } from "../json-pointer.js";
import type { ErrorDetail } from "./error-body.js";

/** Checks a value against one of a flow's schemas: every violation, none when valid. */
export type Check = (value: unknown) => readonly ErrorDetail[];

/** What every valid value gets: one empty list, not a new one per call. */
const NO_PROBLEMS: readonly ErrorDetail[] = Object.freeze([]);

export interface FlowChecks {
  readonly input: Check;
  readonly output: Check;
}

/**
 * Compiles every flow's input and output schema with Ajv (all errors, formats asserted, as the
 * spec checks do), keyed by flow id.
 *
 * @example
 * const checks = compileFlowChecks(model);
 * checks.get("@acme/qa")?.input({ question: 1 }); // [{ pointer: "/question", message: "must be string" }]
 */
export function compileFlowChecks(model: ProjectModel): ReadonlyMap<string, FlowChecks> {
  const ajv = createAjv();
  const checks = new Map<string, FlowChecks>();
  for (const flow of model.flows) {
    const [input, output] = (["input", "output"] as const).map((which) => {
      const validate = ajv.compile(flowSchemaDocument(model, flow, which));
      return (value: unknown) => (validate(value) ? NO_PROBLEMS : (validate.errors ?? []).map(toDetail));
    }) as [Check, Check];
    checks.set(flow.id, { input, output });
  }
  return checks;
}

/** One Ajv error as pointer + message; a missing or extra property is pointed at by name. */
function toDetail(error: ErrorObject): ErrorDetail {
  const { missingProperty, additionalProperty, allowedValues } = error.params as Record<string, unknown>;
  if (typeof missingProperty === "string") return { pointer: `${error.instancePath}/${escapePointerToken(missingProperty)}`, message: "is required" };
  if (typeof additionalProperty === "string") return { pointer: `${error.instancePath}/${escapePointerToken(additionalProperty)}`, message: "is not an allowed property" };
  const allowed = Array.isArray(allowedValues) ? `: ${allowedValues.map((v) => JSON.stringify(v)).join(", ")}` : "";
  return { pointer: error.instancePath, message: `${error.message ?? "is invalid"}${allowed}` };
}
