import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import type { ServeLog } from "./access-log.js";
import { HttpError } from "./error-body.js";
import { FAULT_HEADER, type FaultInjector } from "./faults.js";
import type { FlowChecks } from "./flow-checks.js";
import { createFlowRunner } from "./flow-output.js";
import type { Handlers } from "./handlers.js";
import type { Mocker } from "./mock-output.js";

declare module "fastify" {
  interface FastifyRequest {
    /** What was injected into this call, for the access log. */
    fault: { readonly latencyMs: number; readonly status?: number } | undefined;
  }
}

export interface FlowAnswerOptions {
  readonly model: ProjectModel;
  readonly checks: ReadonlyMap<string, FlowChecks>;
  readonly handlers: Handlers;
  readonly mocker: Mocker;
  readonly faults: FaultInjector;
  readonly log: ServeLog;
  /** Sends a 200 answer (send-reply.ts). */
  readonly send: (reply: FastifyReply, status: number, body: unknown) => FastifyReply;
  /** Waits out injected latency; a test passes its own clock. Default: a timer. */
  readonly delay?: ((ms: number) => Promise<unknown>) | undefined;
}

/**
 * The route handler for calls that admission.ts let in (`request.flow` set): checks the body
 * against the flow's input schema, injects planned faults, then runs the flow's handler, or its
 * mock, and sends the answer once it matches the output schema (flow-output.ts).
 *
 * Not async, and returns nothing: the answer is sent by reply.send() once it is there, so a call
 * that answers at once costs no promise. Fastify hands a synchronous throw, and reply.send(error),
 * to the error handler.
 *
 * @example
 * app.post("*", createFlowAnswer({ model, checks, handlers, mocker, faults, log, send }));
 */
export function createFlowAnswer(options: FlowAnswerOptions): RouteHandlerMethod {
  const { checks } = options;
  const runFlow = createFlowRunner(options);
  const injectFault = createFaultStep(options.faults, options.delay ?? sleep);
  return function answerFlow(request, reply) {
    const flow = request.flow;
    const check = flow === undefined ? undefined : checks.get(flow.id);
    // admission.ts sets the flow before any route runs; a route without one is a bug, not a caller's mistake.
    if (flow === undefined || check === undefined)
      throw new Error(`no admitted flow for ${request.method} ${String(request.targetPath)}`);
    const input = checkInput(flow, check, request.body);
    const fault = injectFault(flow, request, reply);
    if (fault === undefined) runFlow(flow, check, input, request, reply);
    else
      fault
        .then(() => runFlow(flow, check, input, request, reply))
        .catch((error: unknown) => reply.send(error));
  };
}

/** The body, when it is JSON that matches the flow's input schema; else the 415 or 400 to answer. */
function checkInput(flow: FlowModel, check: FlowChecks, input: unknown): unknown {
  if (input === undefined)
    throw new HttpError(
      415,
      "The body must be JSON: send Content-Type: application/json and the flow's input.",
    );
  const problems = check.input(input);
  if (problems.length > 0) {
    throw new HttpError(400, `The body does not match the input schema of ${flow.id}.`, {
      code: "invalid_input",
      details: problems,
    });
  }
  return input;
}

/**
 * Injected faults stand in for the flow's answer: after auth, the rate limit and the body checks,
 * before the handler or mock. Undefined when the call has none: most calls, which skip a promise.
 */
function createFaultStep(
  faults: FaultInjector,
  delay: (ms: number) => Promise<unknown>,
): (flow: FlowModel, request: FastifyRequest, reply: FastifyReply) => Promise<void> | undefined {
  return (flow, request, reply) => {
    const { latencyMs, error } = faults.decide(flow.id, request.headers[FAULT_HEADER]);
    if (latencyMs === 0 && error === undefined) return undefined;
    if (error?.status === 400) return Promise.reject(error); // a malformed X-Flowgen-Fault header
    request.fault = { latencyMs, ...(error ? { status: error.status } : {}) };
    return (async () => {
      if (latencyMs > 0) await delay(latencyMs);
      if (error === undefined) return;
      // A forced 429 reads like a real one: nothing left in the bucket.
      if (error.status === 429) reply.header("ratelimit-remaining", "0");
      throw error;
    })();
  };
}
