import { isFlowError, type FlowFailure } from "../../templates/runtime/index.js";

/** The FlowError a promise rejects with; fails the test when it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<FlowFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!isFlowError(error)) throw new Error(`expected a FlowError, got ${String(error)}`);
  return error;
}
