/** What a flow handler gets besides its input. */
export interface FlowContext {
  /** "@acme/qa". */
  readonly flowId: string;
  /** The request id, also sent back as X-Request-Id. */
  readonly requestId: string;
  /** The request headers (lower-case names); the Authorization header is left out. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The name of the API key that made the call (never the key). */
  readonly keyName: string;
}

export type FlowHandler<Input, Output> = (
  input: Input,
  context: FlowContext,
) => Output | Promise<Output>;

/**
 * Declares the handler of one flow for `flowgen serve`, typed with the flow's generated types.
 * Put it in `handlers/@<org>/<flow>.ts` (or `.js`, `.mjs`) as the default export. `flowgen serve`
 * checks what it returns against the output schema: invalid output is a 500, never a wrong answer.
 *
 * @example
 * import { defineFlow } from "flowgen-cli/serve";
 * import type { QaInput, QaOutput } from "../../generated/@acme/qa.js";
 * export default defineFlow<QaInput, QaOutput>(async ({ question }) => ({ answer: `You asked: ${question}` }));
 */
export function defineFlow<Input, Output>(
  handler: FlowHandler<Input, Output>,
): FlowHandler<Input, Output> {
  return handler;
}
