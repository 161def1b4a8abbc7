// Turns the validators flowgen compiles from each flow's JSON Schemas (with
// `flowgen generate --validators`) into the runtime's `Validate`: one detail per violation, with a
// JSON pointer to the offending value and what is wrong with it.
import type { FlowErrorDetail, Validate } from "./runtime/index.js";

/** A validator as @exodus/schemasafe compiles it: true or false, and the errors of the last call. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: { keywordLocation: string; instanceLocation: string }[] | null;
}

const MESSAGES: Record<string, string> = {
  type: "has the wrong type",
  required: "is required",
  additionalProperties: "is not an allowed property",
  unevaluatedProperties: "is not an allowed property",
  propertyNames: "has a property name that is not allowed",
  enum: "is not one of the allowed values",
  const: "is not the allowed value",
  minLength: "is too short",
  maxLength: "is too long",
  pattern: "does not match the required pattern",
  format: "is not in the required format",
  minimum: "is too small",
  exclusiveMinimum: "is too small",
  maximum: "is too large",
  exclusiveMaximum: "is too large",
  multipleOf: "is not a multiple of the required number",
  minItems: "has too few items",
  maxItems: "has too many items",
  uniqueItems: "has duplicate items",
  minProperties: "has too few properties",
  maxProperties: "has too many properties",
  oneOf: "matches none (or more than one) of the allowed shapes",
  anyOf: "matches none of the allowed shapes",
  not: "matches a shape that is not allowed",
};

/** Wraps a compiled validator as the runtime's `Validate`. */
export function validatorFor(compiled: CompiledValidator): Validate {
  return (value) =>
    compiled(value)
      ? []
      : (compiled.errors ?? []).map(
          ({ keywordLocation, instanceLocation }): FlowErrorDetail => {
            const keyword = keywordLocation.slice(
              keywordLocation.lastIndexOf("/") + 1,
            );
            const message =
              MESSAGES[keyword] ?? `breaks the schema's "${keyword}" rule`;
            return { pointer: instanceLocation.replace(/^#/, ""), message };
          },
        );
}
