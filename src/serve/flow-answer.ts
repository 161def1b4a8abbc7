import { setTimeout as sleep } from "node:timers/promises";
import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from "fastify";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import type { FlowContext } from "./define-flow.js";
import { HttpError } from "./error-body.js";
import { FAULT_HEADER, type FaultInjector } from "./faults.js";
import type { FlowChecks } from "./flow-checks.js";
import type { Handlers } from "./handlers.js";
import { MockUnavailableError, type Mocker, type MockSource } from "./mock-output.js";
import type { ServeLog } from "./access-log.js";

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
}

/**
 * The route handler for calls that admission.ts let in (`request.flow` set): checks the body
 * against the flow's input schema, injects planned faults, then runs the flow's handler, or its
 * mock, and sends the answer once it matches the output schema.
 *
 * Not async, and returns nothing: the answer is sent by reply.send() once it is there, so a call
 * that answers at once costs no promise. Fastify hands a synchronous throw, and reply.send(error),
 * to the error handler.
 *
 * @example
 * app.post("*", createFlowAnswer({ model, checks, handlers, mocker, faults, log, send }));
 */
export function createFlowAnswer(options: FlowAnswerOptions): RouteHandlerMethod {
  const { checks, handlers, mocker, faults, log, send } = options;
  const mockSources = new Map<string, MockSource>(
    options.model.flows.map((flow) => [
      flow.id,
      {
        id: flow.id,
        outputSchema: flowSchemaDocument(options.model, flow, "output"),
        examples: flow.examples ?? [],
      },
    ]),
  );

  const failed = (flow: FlowModel, request: FastifyRequest, error: unknown): HttpError => {
    log({
      level: "error",
      msg: `the handler of ${flow.id} threw`,
      requestId: request.id,
      flow: flow.id,
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
    return new HttpError(
      500,
      `The handler of ${flow.id} failed; see the server log (request id ${request.id}).`,
    );
  };

  const sendOutput = (
    flow: FlowModel,
    check: FlowChecks,
    output: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    const wrong = check.output(output);
    if (wrong.length > 0) {
      const where = handlers.get(flow.id) ? `the handler of ${flow.id}` : `the mock of ${flow.id}`;
      log({
        level: "error",
        msg: `${where} returned output that does not match the output schema`,
        requestId: request.id,
        flow: flow.id,
        problems: wrong,
      });
      throw new HttpError(
        500,
        `${where} returned output that does not match the flow's output schema; see the server log (request id ${request.id}).`,
      );
    }
    send(reply, 200, output);
  };

  const mock = async (
    flow: FlowModel,
    input: unknown,
    request: FastifyRequest,
  ): Promise<unknown> => {
    const source = mockSources.get(flow.id);
    try {
      return source === undefined ? undefined : await mocker.mock(source, input);
    } catch (error) {
      if (!(error instanceof MockUnavailableError)) throw error;
      log({ level: "error", msg: error.message, requestId: request.id, flow: flow.id });
      throw new HttpError(500, `${error.message} (request id ${request.id})`);
    }
  };

  const answer = (
    flow: FlowModel,
    check: FlowChecks,
    input: unknown,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void => {
    const sendChecked = (output: unknown) => {
      try {
        sendOutput(flow, check, output, request, reply);
      } catch (error) {
        reply.send(error);
      }
    };
    const handler = handlers.get(flow.id);
    if (!handler) {
      mock(flow, input, request).then(sendChecked, (error: unknown) => reply.send(error));
      return;
    }
    // A plain object: a getter here would give each call's context a shape of its own, which V8
    // keeps past young-generation collections (see bench/NOTES.md).
    const { authorization: _secret, ...headers } = request.headers;
    const context: FlowContext = {
      flowId: flow.id,
      requestId: request.id,
      headers,
      keyName: request.keyName ?? "",
    };
    let result: unknown;
    try {
      result = handler(input, context);
    } catch (error) {
      throw failed(flow, request, error);
    }
    if (isThenable(result))
      Promise.resolve(result).then(sendChecked, (error: unknown) =>
        reply.send(failed(flow, request, error)),
      );
    else sendOutput(flow, check, result, request, reply);
  };

  /**
   * Injected faults stand in for the flow's answer: after auth, the rate limit and the body checks,
   * before the handler or mock. Undefined when the call has none: most calls, which skip a promise.
   */
  const injectFault = (
    flow: FlowModel,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<void> | undefined => {
    const { latencyMs, error } = faults.decide(flow.id, request.headers[FAULT_HEADER]);
    if (latencyMs === 0 && error === undefined) return undefined;
    if (error?.status === 400) return Promise.reject(error); // a malformed X-Flowgen-Fault header
    request.fault = { latencyMs, ...(error ? { status: error.status } : {}) };
    return (async () => {
      if (latencyMs > 0) await sleep(latencyMs);
      if (error === undefined) return;
      // A forced 429 reads like a real one: nothing left in the bucket.
      if (error.status === 429) reply.header("ratelimit-remaining", "0");
      throw error;
    })();
  };

  return function answerFlow(request, reply) {
    const flow = request.flow;
    const check = flow === undefined ? undefined : checks.get(flow.id);
    // admission.ts sets the flow before any route runs; a route without one is a bug, not a caller's mistake.
    if (flow === undefined || check === undefined)
      throw new Error(`no admitted flow for ${request.method} ${String(request.targetPath)}`);
    const input: unknown = request.body;
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
    const fault = injectFault(flow, request, reply);
    if (fault === undefined) answer(flow, check, input, request, reply);
    else
      fault
        .then(() => answer(flow, check, input, request, reply))
        .catch((error: unknown) => reply.send(error));
  };
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
