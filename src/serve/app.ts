import type { IncomingMessage, ServerResponse } from "node:http";
import Fastify, { type FastifyInstance, type HTTPMethods } from "fastify";
import type { ProjectModel } from "../model/build-model.js";
import { createAccessLog, type ServeLog } from "./access-log.js";
import { createAdmission } from "./admission.js";
import { DOCS_PATHS, useApiReference } from "./api-reference.js";
import { useCors, type CorsPolicy } from "./cors.js";
import {
  answerClientError,
  answerConnect,
  answerFrameworkError,
  createErrorHandler,
} from "./error-answers.js";
import { createFaultInjector, NO_FAULTS, type FaultPlan } from "./faults.js";
import { createFlowAnswer } from "./flow-answer.js";
import type { FlowChecks } from "./flow-checks.js";
import type { Handlers } from "./handlers.js";
import { useJsonBody } from "./json-body.js";
import type { Keyring } from "./keys.js";
import { createMocker } from "./mock-output.js";
import type { RateLimiter } from "./rate-limit.js";
import { createRequestIds } from "./request-id.js";
import { createReplySender, type ReplySender } from "./send-reply.js";
import { createKeySafeLog } from "./withhold-keys.js";

export interface ServeAppOptions {
  readonly model: ProjectModel;
  /** Each flow's input and output checks, from compileFlowChecks(model). */
  readonly checks: ReadonlyMap<string, FlowChecks>;
  /** The keys accepted now (live-keys.ts), read for every request. */
  readonly keys: () => Keyring;
  /** Per-key token buckets (createRateLimiter); kept by the caller, so an app rebuilt for new specs keeps the buckets. */
  readonly limiter: RateLimiter;
  /** Largest request body in bytes; larger ones get 413. */
  readonly bodyLimit: number;
  /** Deepest nesting of arrays and objects a body may have; deeper ones get 400. */
  readonly maxDepth: number;
  /** How long a client may take to send the request headers, and the whole request, in ms; then 408 and the connection is closed. */
  readonly timeouts: { readonly headersMs: number; readonly requestMs: number };
  readonly handlers: Handlers;
  /** Seed of the mock data for flows without a handler: the same seed gives the same answers. */
  readonly seed: number;
  /** Injected latency and errors (faults.ts), decided with `seed`; no planned faults by default, and the X-Flowgen-Fault header accepted. */
  readonly faults?: FaultPlan | undefined;
  /** Certificate and key (PEM) to serve HTTPS; plain HTTP without. */
  readonly https?: { readonly cert: string; readonly key: string } | undefined;
  /** Where the access log and handler problems go, one JSON object per line; undefined for none. */
  readonly log?: ServeLog | undefined;
  /** Waits out injected latency; tests pass a clock of their own. Default: a timer. */
  readonly delay?: ((ms: number) => Promise<unknown>) | undefined;
  /** The origins whose pages may call (cors.ts). */
  readonly cors: CorsPolicy;
  /** Serve the API reference at /docs and the OpenAPI document at /openapi.json, without a key. */
  readonly docs: boolean;
}

/**
 * Every method a request may come with: one route takes them all, and admission decides. OPTIONS
 * is @fastify/cors's route, which admission lets no request reach (it answers preflights itself).
 */
const METHODS: HTTPMethods[] = ["DELETE", "GET", "HEAD", "PATCH", "POST", "PUT"];

/**
 * The flow invocation service as a Fastify app: `POST /v1/@org/flow` for every flow in the model,
 * behind bearer auth (with per-org keys) and a per-key rate limit, with the body checked against
 * the flow's input schema and the answer against its output schema. A flow's handler answers
 * when there is one, else a mock. Every error uses the platform's error body, including those Node
 * would answer itself (a missing Host, `Expect`, CONNECT, a closing server), and neither an answer
 * nor a log line repeats an API key sent anywhere but in Authorization (withhold-keys.ts).
 *
 * Routing is admission's: one route takes every request, and the `onRequest` hook of
 * admission.ts reads the path once, decides auth, org, rate limit and flow from that reading
 * before the body is read, and hands the route the flow it admitted.
 *
 * @example
 * const app = createServeApp({ model, checks, keys: () => keyring, limiter: createRateLimiter({ rate: 10, burst: 20 }), bodyLimit: 1 << 20, maxDepth: 64, timeouts: { headersMs: 10_000, requestMs: 30_000 }, handlers, seed: 1 });
 * await app.listen({ port: 0, host: "127.0.0.1" });
 */
export function createServeApp(options: ServeAppOptions): FastifyInstance {
  checkLimits(options);
  const { keys } = options;
  const log = options.log ? createKeySafeLog(options.log, keys) : () => undefined;
  const app = createFastifyApp(options);
  const sender = createReplySender(app);
  useMiddleware(app, options, sender, log);
  useFlowRoute(app, options, sender.send, log);
  return app;
}

/** The Fastify app on an HTTP or HTTPS server that leaves every answer, even Node's own, to the app. */
function createFastifyApp(options: ServeAppOptions): FastifyInstance {
  const { timeouts } = options;
  // Node drops a connection whose headers are late only when it next looks: look often enough.
  // Without a Host header Node would answer 400 itself with an empty body: admission answers.
  const socketOptions = {
    requireHostHeader: false,
    headersTimeout: timeouts.headersMs,
    connectionsCheckingInterval: Math.min(1000, Math.max(50, Math.floor(timeouts.headersMs / 4))),
  };
  // One app for HTTP and HTTPS: the routes do not depend on the transport.
  const app = Fastify({
    ...(options.https
      ? { https: { cert: options.https.cert, key: options.https.key, ...socketOptions } }
      : { http: socketOptions }),
    requestTimeout: timeouts.requestMs,
    bodyLimit: options.bodyLimit,
    logger: false,
    requestIdHeader: false,
    genReqId: createRequestIds(options.keys),
    // Admission answers a closing server's 503 in the error body.
    return503OnClosing: false,
    exposeHeadRoutes: false,
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
  }) as unknown as FastifyInstance;
  app.decorateRequest("targetPath", undefined);
  app.decorateRequest("flow", undefined);
  app.decorateRequest("keyName", undefined);
  app.decorateRequest("fault", undefined);
  passExpectationsToAdmission(app);
  app.server.on("connect", answerConnect);
  // Node drops every header after the 2000th, a second Authorization included, where admission
  // could not see it; the 16 KB limit on the head bounds their number anyway.
  app.server.maxHeadersCount = 0;
  return app;
}

/** What runs before and around the route: body parsing, CORS, admission, the docs, the access log, errors. */
function useMiddleware(
  app: FastifyInstance,
  options: ServeAppOptions,
  { send, closing }: ReplySender,
  log: ServeLog,
): void {
  const { keys } = options;
  useJsonBody(app, { maxDepth: options.maxDepth });
  // Before admission, so that its refusals carry the CORS headers too.
  useCors(app, options.cors, keys);
  app.addHook(
    "onRequest",
    createAdmission({
      keys,
      limiter: options.limiter,
      flows: options.model.flows,
      closing,
      publicPaths: options.docs ? DOCS_PATHS : new Set(),
      cors: options.cors,
    }),
  );
  if (options.docs) useApiReference(app, options.model, options.cors);
  if (options.log) app.addHook("onResponse", createAccessLog(log));
  app.setErrorHandler(createErrorHandler(send, log, keys));
}

/** The one route, answering the flow admission admitted with its handler or a mock. */
function useFlowRoute(
  app: FastifyInstance,
  options: ServeAppOptions,
  send: ReplySender["send"],
  log: ServeLog,
): void {
  const { model, checks, handlers } = options;
  const mocker = createMocker({
    seed: options.seed,
    isValidOutput: (id, value) => (checks.get(id)?.output(value) ?? []).length === 0,
  });
  const faults = createFaultInjector(
    options.faults ?? NO_FAULTS,
    options.seed,
    model.flows.map((flow) => flow.id),
  );
  app.route({
    method: METHODS,
    url: "*",
    handler: createFlowAnswer({
      model,
      checks,
      handlers,
      mocker,
      faults,
      log,
      send,
      delay: options.delay,
    }),
  });
  // Methods outside METHODS reach here, after admission refused them or not.
  app.setNotFoundHandler(() => {
    throw new Error("admission lets no request through without a flow");
  });
}

/**
 * Node answers `Expect: 100-continue` with `100 Continue` before any check has run, and any other
 * expectation with an empty 417, unless the server listens for them: hand both on as ordinary
 * requests (to whichever app answers on this server now), for admission.ts to decide.
 */
function passExpectationsToAdmission(app: FastifyInstance): void {
  for (const event of ["checkContinue", "checkExpectation"])
    app.server.on(event, (request: IncomingMessage, response: ServerResponse) =>
      app.server.emit("request", request, response),
    );
}

/** Limits that Node or Fastify would take silently (0 turns a timeout off) or refuse with a stack: said as a RangeError. */
function checkLimits({ maxDepth, timeouts }: Pick<ServeAppOptions, "maxDepth" | "timeouts">): void {
  if (!(Number.isInteger(maxDepth) && maxDepth >= 1 && maxDepth <= 10_000)) {
    throw new RangeError(
      `max depth must be a whole number from 1 to 10000 (got ${String(maxDepth)}); pass for example 64 (--max-depth 64)`,
    );
  }
  if (!(Number.isInteger(timeouts.headersMs) && timeouts.headersMs >= 1)) {
    throw new RangeError(
      `the headers timeout must be a whole number of milliseconds, at least 1 (got ${String(timeouts.headersMs)}); pass for example 10000 (--headers-timeout 10000)`,
    );
  }
  if (!(Number.isInteger(timeouts.requestMs) && timeouts.requestMs >= timeouts.headersMs)) {
    throw new RangeError(
      `the request timeout must be a whole number of milliseconds, at least the headers timeout of ${timeouts.headersMs} (got ${String(timeouts.requestMs)}); pass for example 30000 (--request-timeout 30000)`,
    );
  }
}
