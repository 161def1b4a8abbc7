// What `onEvent` sees. Events carry no request or response objects: only figures and errors whose
// fields are already scrubbed of the key, so they are safe to log as they are.
import type { FlowFailure } from "./errors.js";

/**
 * One `request` per attempt, then its `response` or `error`, then maybe a `retry`. An attempt that
 * ends before it is sent (its call's deadline or abort, while it waits for a transport slot or
 * for its key) reports only its `error`.
 */
export type FlowEvent =
  | { type: "request"; flowId: string; attempt: number }
  | {
      type: "response";
      flowId: string;
      attempt: number;
      status: number;
      durationMs: number;
      requestId: string | undefined;
    }
  | {
      type: "error";
      flowId: string;
      attempt: number;
      durationMs: number;
      error: FlowFailure;
    }
  | {
      type: "retry";
      flowId: string;
      attempt: number;
      delayMs: number;
      error: FlowFailure;
    };
