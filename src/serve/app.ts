import { randomBytes } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import parseJson from "secure-json-parse";
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from "fastify";
import type { FlowModel, ProjectModel } from "../model/build-model.js";
import { flowSchemaDocument } from "../model/flow-schema-document.js";
import { ERROR_CODES, HttpError, type ErrorStatus } from "./error-body.js";
import { createFaultInjector, FAULT_HEADER, NO_FAULTS, type FaultPlan } from "./faults.js";
import { compileFlowChecks, type FlowChecks } from "./flow-checks.js";
import type { FlowContext } from "./define-flow.js";
import type { Handlers } from "./handlers.js";
import type { AuthResult, Keyring } from "./keys.js";
import { createMocker, MockUnavailableError, type MockSource } from "./mock-output.js";
import { createRateLimiter, type RateLimitOptions } from "./rate-limit.js";

export interface ServeAppOptions {
  readonly model: ProjectModel;
  readonly keyring: Keyring;
  readonly rateLimit: RateLimitOptions;
  /** Largest request body in bytes; larger ones get 413. */
  readonly bodyLimit: number;
  readonly handlers: Handlers;
  /** Seed of the mock data for flows without a handler: the same seed gives the same answers. */
  readonly seed: number;
  /** Injected latency and errors (faults.ts), decided with `seed`; no planned faults by default, and the X-Flowgen-Fault header accepted. */
  readonly faults?: FaultPlan | undefined;
  /** Certificate and key (PEM) to serve HTTPS; plain HTTP without. */
  readonly https?: { readonly cert: string; readonly key: string } | undefined;
  /** Where the access log and handler problems go, one JSON object per line; undefined for none. */
  readonly log?: ((entry: Record<string, unknown>) => void) | undefined;
}

/** What was injected into a call, for the access log. */
interface InjectedFault {
  readonly latencyMs: number;
  readonly status?: number;
}

declare module "fastify" {
  interface FastifyRequest {
    /** Whether admit() has run for this request. */
    admitted: boolean;
    /** The name of the key that made the call, once it is let in. */
    keyName: string | undefined;
    fault: InjectedFault | undefined;
  }
}

const UNAUTHORIZED = {
  missing: "This call needs an API key: send Authorization: Bearer <API_KEY>.",
  malformed: "The Authorization header must be Bearer <API_KEY>.",
  unknown: "The API key is not known here; use one of the keys flowgen serve was started with.",
} as const;

const METHODS_OTHER_THAN_POST = ["DELETE", "GET", "PATCH", "PUT", "OPTIONS"] as const;

/**
 * The flow invocation service as a Fastify app: `POST /v1/@org/flow` for every flow in the model,
 * behind bearer auth (with per-org keys) and a per-key rate limit, with the body checked against
 * the flow's input schema and the answer against its output schema. A flow's handler answers
 * when there is one, else a mock. Every error uses the platform's error body.
 *
 * @example
 * const app = await createServeApp({ model, keyring, rateLimit: { rate: 10, burst: 20 }, bodyLimit: 1 << 20, handlers, seed: 1 });
 * await app.listen({ port: 0, host: "127.0.0.1" });
 */
export async function createServeApp(options: ServeAppOptions): Promise<FastifyInstance> {
  // `req_` and 32 hex digits: 16 random per app, then a count, unique without a random draw per call.
  const idPrefix = `req_${randomBytes(8).toString("hex")}`;
  let idCount = 0;
  const nextRequestId = () => idPrefix + (idCount++).toString(16).padStart(16, "0");
  const { model, keyring, handlers } = options;
  const log = options.log ?? (() => undefined);
  const checks = compileFlowChecks(model);
  const mocker = createMocker({ seed: options.seed, isValidOutput: (id, value) => (checks.get(id)?.output(value) ?? []).length === 0 });
  const limiter = createRateLimiter(options.rateLimit);
  const faults = createFaultInjector(options.faults ?? NO_FAULTS, options.seed, model.flows.map((flow) => flow.id));
  const flows = new Map(model.flows.map((flow) => [flow.httpPath, flow]));
  const mockSources = new Map<string, MockSource>(
    model.flows.map((flow) => [flow.id, { id: flow.id, outputSchema: flowSchemaDocument(model, flow, "output"), examples: flow.examples ?? [] }]),
  );

  // One app for HTTP and HTTPS: the routes do not depend on the transport.
  const app = Fastify({
    ...(options.https ? { https: { cert: options.https.cert, key: options.https.key } } : {}),
    bodyLimit: options.bodyLimit,
    logger: false,
    requestIdHeader: false,
    genReqId: (req) => {
      const given = req.headers["x-request-id"];
      // Echo a caller's id when it is a sane token; otherwise make one.
      return typeof given === "string" && /^[\x21-\x7e]{1,128}$/.test(given) ? given : nextRequestId();
    },
  }) as unknown as FastifyInstance;
  app.decorateRequest("admitted", false);
  app.decorateRequest("keyName", undefined);
  app.decorateRequest("fault", undefined);

  // Fastify's JSON parser (secure-json-parse, prototype poisoning refused), save that a body that
  // does not parse says why and where: "Expected ',' or '}' after property value in JSON at position 12".
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (_request, body, done) => {
    if (body === "") return done(new HttpError(400, "The body is empty; send the flow's input as JSON.", { code: "invalid_json" }), undefined);
    try {
      done(null, parseJson(body as string, undefined, { protoAction: "error", constructorAction: "error" }));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const poisoned = /forbidden (prototype|constructor) property/.test(message);
      done(
        poisoned
          ? new HttpError(400, 'The body has a "__proto__" key, or "constructor" with "prototype", which this server refuses; rename the key.')
          : new HttpError(400, `The body is not valid JSON: ${message}.`, { code: "invalid_json" }),
        undefined,
      );
    }
  });

  // No hooks on the request path: every flow route (and the 404 and 405 answers) calls admit()
  // first, and the error handler calls it for Fastify's own body errors, so auth still comes first.
  // A hook would run the same code at a few microseconds more a call, which a load test shows.

  // A keep-alive connection that sends the Authorization header it sent before gets the answer
  // that header got, without the keyring's constant-time comparison (a few microseconds a call
  // under load). Comparing with the connection's own previous header tells its sender nothing new.
  const lastAuth = new WeakMap<object, { readonly header: string | undefined; readonly result: AuthResult }>();
  const authenticate = (request: FastifyRequest): AuthResult => {
    const header = request.headers.authorization;
    const socket = request.raw.socket;
    const last = lastAuth.get(socket);
    if (last !== undefined && last.header === header) return last.result;
    const result = keyring.authenticate(header);
    lastAuth.set(socket, { header, result });
    return result;
  };

  /**
   * Sets X-Request-Id, then checks auth, the key's orgs and its rate limit; the error that refuses
   * the call, if any. `org` is the flow's when the route knows it, else read from the URL.
   */
  function admit(request: FastifyRequest, reply: FastifyReply, org = /^\/v1\/(@[^/?#]+)\//.exec(request.url)?.[1]): HttpError | undefined {
    request.admitted = true;
    reply.header("x-request-id", request.id);
    if (!request.url.startsWith("/v1/")) return undefined;
    const auth = authenticate(request);
    if (!auth.ok) {
      const challenge = auth.reason === "unknown" ? 'Bearer realm="flowgen", error="invalid_token"' : 'Bearer realm="flowgen"';
      return new HttpError(401, UNAUTHORIZED[auth.reason], { headers: { "www-authenticate": challenge } });
    }
    if (org !== undefined && !keyring.allows(auth, org)) {
      return new HttpError(403, `This API key may not call flows of ${org}.`);
    }
    const rate = limiter.take(auth.name);
    request.keyName = auth.name;
    reply.header("ratelimit-limit", String(rate.limit));
    reply.header("ratelimit-remaining", String(rate.remaining));
    reply.header("ratelimit-reset", String(rate.resetSeconds));
    if (rate.allowed) return undefined;
    return new HttpError(429, `Too many requests for this API key; retry after ${rate.retryAfterSeconds} s.`, {
      headers: { "retry-after": String(rate.retryAfterSeconds) },
    });
  }

  // Closing waits for connections to end. Answers given while closing ask the client to drop its
  // keep-alive connection, so the ones in flight finish and none is left idle. (New requests get
  // Fastify's own 503 with Connection: close.)
  let closing = false;
  app.addHook("preClose", (done) => {
    closing = true;
    done();
  });
  const send = (reply: FastifyReply, status: number, body: unknown) => {
    if (closing) reply.header("connection", "close");
    return reply.code(status).send(body);
  };

  if (options.log) {
    const write = options.log;
    app.addHook("onResponse", (request, reply, done) => {
      write({
        level: "info",
        msg: "request",
        requestId: request.id,
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
        key: request.keyName,
        ...(request.fault ? { fault: request.fault } : {}),
      });
      done();
    });
  }

  for (const flow of model.flows) {
    const check = checks.get(flow.id);
    if (!check) continue;
    const org = `@${flow.org}`;
    // Not async, and returns nothing: the answer is sent by reply.send() once it is there, so a call
    // costs no promise of flowgen's own (a few microseconds under load). Fastify hands what a
    // synchronous throw, or reply.send(error), carries to the error handler.
    app.post(flow.httpPath, (request, reply) => {
      const refused = admit(request, reply, org);
      if (refused !== undefined) throw refused;
      const type = request.headers["content-type"] ?? "";
      if (type !== "application/json" && !/^application\/json\s*(;|$)/i.test(type)) {
        throw new HttpError(415, `The body must be JSON: send Content-Type: application/json (got ${JSON.stringify(type)}).`);
      }
      const input: unknown = request.body;
      const problems = check.input(input);
      if (problems.length > 0) {
        throw new HttpError(400, `The body does not match the input schema of ${flow.id}.`, { code: "invalid_input", details: problems });
      }
      const fault = injectFault(flow, request, reply);
      if (fault === undefined) answer(flow, check, input, request, reply);
      else fault.then(() => answer(flow, check, input, request, reply)).catch((error: unknown) => reply.send(error));
    });
    app.route({
      method: [...METHODS_OTHER_THAN_POST],
      url: flow.httpPath,
      handler: async (request, reply) => {
        throw admit(request, reply, org) ?? new HttpError(405, `${flow.id} is run with POST.`, { headers: { allow: "POST" } });
      },
    });
  }

  /**
   * Injected faults stand in for the flow's answer: after auth, the rate limit and the body checks,
   * before the handler or mock. Undefined when the call has none: most calls, which skip a promise.
   */
  function injectFault(flow: FlowModel, request: FastifyRequest, reply: FastifyReply): Promise<void> | undefined {
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
  }

  /** Runs the flow's handler, or its mock, and sends the answer once it matches the output schema. */
  function answer(flow: FlowModel, check: FlowChecks, input: unknown, request: FastifyRequest, reply: FastifyReply): void {
    const handler = handlers.get(flow.id);
    const sendChecked = (output: unknown) => {
      try {
        sendOutput(flow, check, output, request, reply);
      } catch (error) {
        reply.send(error);
      }
    };
    if (!handler) {
      mock(flow, input, request).then(sendChecked, (error: unknown) => reply.send(error));
      return;
    }
    // A plain object: a getter here would give each call's context its own shape, which V8 keeps
    // past a young-generation GC (1.3 MB promoted every 65 ms under load, 2.5 ms pauses).
    const { authorization: _secret, ...headers } = request.headers;
    const context: FlowContext = { flowId: flow.id, requestId: request.id, headers, keyName: request.keyName ?? "" };
    let result: unknown;
    try {
      result = handler(input, context);
    } catch (error) {
      throw handlerFailed(flow, request, error);
    }
    if (isThenable(result)) Promise.resolve(result).then(sendChecked, (error: unknown) => reply.send(handlerFailed(flow, request, error)));
    else sendOutput(flow, check, result, request, reply);
  }

  function handlerFailed(flow: FlowModel, request: FastifyRequest, error: unknown): HttpError {
    log({ level: "error", msg: `the handler of ${flow.id} threw`, requestId: request.id, flow: flow.id, error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    return new HttpError(500, `The handler of ${flow.id} failed; see the server log (request id ${request.id}).`);
  }

  async function mock(flow: FlowModel, input: unknown, request: FastifyRequest): Promise<unknown> {
    const source = mockSources.get(flow.id);
    try {
      return source === undefined ? undefined : await mocker.mock(source, input);
    } catch (error) {
      if (!(error instanceof MockUnavailableError)) throw error;
      log({ level: "error", msg: error.message, requestId: request.id, flow: flow.id });
      throw new HttpError(500, `${error.message} (request id ${request.id})`);
    }
  }

  function sendOutput(flow: FlowModel, check: FlowChecks, output: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
    const wrong = check.output(output);
    if (wrong.length > 0) {
      const where = handlers.get(flow.id) ? `the handler of ${flow.id}` : `the mock of ${flow.id}`;
      log({ level: "error", msg: `${where} returned output that does not match the output schema`, requestId: request.id, flow: flow.id, problems: wrong });
      throw new HttpError(500, `${where} returned output that does not match the flow's output schema; see the server log (request id ${request.id}).`);
    }
    return send(reply, 200, output);
  }

  app.setNotFoundHandler(async (request, reply) => {
    const refused = admit(request, reply);
    if (refused !== undefined) throw refused;
    const flowPath = /^\/v1\/@[^/]+\/[^/?#]+/.exec(request.url)?.[0];
    if (flowPath !== undefined && !flows.has(flowPath)) {
      throw new HttpError(404, `There is no flow ${flowPath.slice(4)} here; the flows are: ${[...flows.values()].map((f) => f.id).join(", ")}.`);
    }
    throw new HttpError(404, `Nothing at ${request.method} ${request.url.split("?")[0]}; flows are run with POST /v1/@<org>/<flow-name>.`);
  });

  app.setErrorHandler(async (thrown: FastifyError | HttpError, request, reply) => {
    // The body's checks (size, media type, JSON) run before the route: auth first.
    const refused = request.admitted ? undefined : admit(request, reply);
    const error = refused ?? toHttpError(thrown, request, log);
    for (const [name, value] of Object.entries(error.options.headers ?? {})) reply.header(name, value);
    return send(reply, error.status, error.body(request.id));
  });
  return app;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === "object" && value !== null && typeof (value as { then?: unknown }).then === "function";
}

/** Fastify's own errors (body parsing, limits) as the platform's. */
function toHttpError(error: FastifyError | HttpError, request: FastifyRequest, log: (entry: Record<string, unknown>) => void): HttpError {
  if (error instanceof HttpError) return error;
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return new HttpError(413, "The body is larger than this server accepts; send a smaller one.");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return new HttpError(415, "The body must be JSON: send Content-Type: application/json.");
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500 && status in ERROR_CODES) return new HttpError(status as ErrorStatus, error.message);
  log({ level: "error", msg: "internal error", requestId: request.id, error: error.stack ?? error.message });
  return new HttpError(500, `Internal error; see the server log (request id ${request.id}).`);
}
