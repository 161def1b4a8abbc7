// The runtime's public face: what generated modules and their users import. The generated
// `index.ts` re-exports exactly these names (flowgen keeps its list in step, checked by a test).
export type { ClientOptions } from "./config.js";
export {
  FlowError,
  isFlowError,
  type FlowErrorBody,
  type FlowErrorDetail,
  type FlowErrorKind,
  type FlowFailure,
} from "./errors.js";
export type { FlowEvent } from "./events.js";
export {
  createFlowTransport,
  type FlowTransport,
  type RateLimit,
  type TransportOptions,
} from "./limits.js";
export type { RetryOptions } from "./retry.js";
export type { FlowValidators, Validate } from "./validate.js";
export {
  createFlowClient,
  type FlowClient,
  type FlowDefinition,
  type FlowResult,
  type RunOptions,
} from "./client.js";
