import type { FlowModel } from "../model/build-model.js";

/** A flow whose schema the validator compiler cannot turn into code, with its reason. */
export class ValidatorCompileError extends Error {
  constructor(
    readonly flow: FlowModel,
    readonly schema: "input" | "output",
    reason: string,
  ) {
    super(reason);
  }
}
