import type { FastifyReply, FastifyRequest } from "fastify";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import type { ServeLog } from "./access-log.js";
import type { FlowContext } from "./define-flow.js";
import { HttpError } from "./error-body.js";
import type { FlowChecks } from "./flow-checks.js";
import type { Handlers } from "./handlers.js";
import { MockUnavailableError, type Mocker, type MockSource } from "./mock-output.js";

export interface FlowOutputOptions {
  readonly model: ProjectModel;
  readonly handlers: Handlers;
  readonly mocker: Mocker;
  readonly log: ServeLog;
  /** Sends a 200 answer (send-reply.ts). */
  readonly send: (reply: FastifyReply, status: number, body: unknown) => FastifyReply;
}

/** Answers an admitted call whose input passed its checks. */
export type RunFlow = (
  flow: FlowModel,
  check: FlowChecks,
  input: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
) => void;

/**
 * Runs a flow's handler, or its mock when it has none, and sends the output once it matches the
 * output schema: a 500 that points at the server log otherwise, or when the handler throws. A
 * handler that answers at once costs no promise.
 *
 * @example
 * const runFlow = createFlowRunner({ model, handlers, mocker, log, send });
 * runFlow(flow, check, input, request, reply);
 */
export function createFlowRunner(options: FlowOutputOptions): RunFlow {
  const { handlers } = options;
  const sendOutput = createOutputSender(options);
  const mock = createMock(options);
  return (flow, check, input, request, reply) => {
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
    let result: unknown;
    try {
      result = handler(input, handlerContext(flow, request));
    } catch (error) {
      throw handlerFailed(options.log, flow, request, error);
    }
    if (isThenable(result))
      Promise.resolve(result).then(sendChecked, (error: unknown) =>
        reply.send(handlerFailed(options.log, flow, request, error)),
      );
    else sendOutput(flow, check, result, request, reply);
  };
}

/**
 * What a handler is told about its call: never the Authorization header. A plain object: a getter
 * here would give each call's context a shape of its own, which V8 keeps past young-generation
 * collections (see bench/NOTES.md).
 */
function handlerContext(flow: FlowModel, request: FastifyRequest): FlowContext {
  const { authorization: _secret, ...headers } = request.headers;
  return { flowId: flow.id, requestId: request.id, headers, keyName: request.keyName ?? "" };
}

/** Sends output that matches the flow's output schema; throws the 500 for output that does not. */
function createOutputSender(
  options: FlowOutputOptions,
): (
  flow: FlowModel,
  check: FlowChecks,
  output: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
) => void {
  const { handlers, log, send } = options;
  return (flow, check, output, request, reply) => {
    const wrong = check.output(output);
    if (wrong.length === 0) return void send(reply, 200, output);
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
  };
}

/** The mock output of a flow without a handler; a 500 when its schema allows no mock. */
function createMock(
  options: FlowOutputOptions,
): (flow: FlowModel, input: unknown, request: FastifyRequest) => Promise<unknown> {
  const { model, mocker, log } = options;
  const sources = new Map<string, MockSource>(
    model.flows.map((flow) => [
      flow.id,
      {
        id: flow.id,
        outputSchema: flowSchemaDocument(model, flow, "output"),
        examples: flow.examples ?? [],
      },
    ]),
  );
  return async (flow, input, request) => {
    const source = sources.get(flow.id);
    try {
      return source === undefined ? undefined : await mocker.mock(source, input);
    } catch (error) {
      if (!(error instanceof MockUnavailableError)) throw error;
      log({ level: "error", msg: error.message, requestId: request.id, flow: flow.id });
      throw new HttpError(500, `${error.message} (request id ${request.id})`);
    }
  };
}

/** Logs what a handler threw, with its stack, and makes the 500 its caller gets (no stack). */
function handlerFailed(
  log: ServeLog,
  flow: FlowModel,
  request: FastifyRequest,
  error: unknown,
): HttpError {
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
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { then?: unknown }).then === "function"
  );
}
