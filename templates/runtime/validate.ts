// The optional schema checks a client runs when generated with `--validators`.
import { detailLines, type FlowErrorDetail } from "./errors.js";

/** Checks a value against one of the flow's JSON Schemas: one detail per violation, none if valid. */
export type Validate = (value: unknown) => FlowErrorDetail[];

export interface FlowValidators {
  readonly input: Validate;
  readonly output: Validate;
}

/**
 * What a failed check says: which schema, and one line per violation.
 *
 * @example
 * describeViolations("input", [{ pointer: "/n", message: "has the wrong type" }]);
 * // "the input does not match the flow's input schema\n  /n: has the wrong type"
 */
export function describeViolations(
  which: "input" | "output",
  details: FlowErrorDetail[],
): string {
  return `the ${which} does not match the flow's ${which} schema${detailLines(details)}`;
}
