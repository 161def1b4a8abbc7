/**
 * The names the client runtime (`templates/runtime/index.ts`) exports, which the generated
 * `index.ts` re-exports beside the flow namespaces. The one list flowgen keeps of them: a test
 * checks it against the runtime's own exports, so a name added there must be added here.
 */
export const RUNTIME_VALUE_EXPORTS: readonly string[] = [
  "FlowError",
  "createFlowClient",
  "createFlowTransport",
  "isFlowError",
];

export const RUNTIME_TYPE_EXPORTS: readonly string[] = [
  "ClientOptions",
  "FlowClient",
  "FlowDefinition",
  "FlowErrorBody",
  "FlowErrorDetail",
  "FlowErrorKind",
  "FlowEvent",
  "FlowFailure",
  "FlowResult",
  "FlowTransport",
  "FlowValidators",
  "RateLimit",
  "RetryOptions",
  "RunOptions",
  "TransportOptions",
  "Validate",
];

/** Every name the runtime exports, values and types: identifiers `index.ts` cannot also use for a flow. */
export const RUNTIME_EXPORTS: readonly string[] = [
  ...RUNTIME_VALUE_EXPORTS,
  ...RUNTIME_TYPE_EXPORTS,
];

/** Where the runtime sits in the output folder: `runtime/`, one file per source file, entered through its index. */
export const RUNTIME_DIR = "runtime";
export const RUNTIME_ENTRY = `${RUNTIME_DIR}/index.js`;
