import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from "fastify";
import type { FlowModel } from "../model/build-model.js";
import { isPreflight, type CorsPolicy } from "./cors.js";
import { HttpError } from "./error-body.js";
import type { AuthResult, Keyring } from "./keys.js";
import type { RateLimiter } from "./rate-limit.js";
import {
  checkBodyCoding,
  checkExpectation,
  checkRequestHead,
  wantsContinue,
} from "./request-head.js";
import { requestPath } from "./request-target.js";

declare module "fastify" {
  interface FastifyRequest {
    /** The request target's path as sent (request-target.ts), or undefined when it has none. */
    targetPath: string | undefined;
    /** The flow this request runs, set once it is admitted: auth, org, rate limit and method passed. */
    flow: FlowModel | undefined;
    /** The name of the key that made the call, once it is authenticated. */
    keyName: string | undefined;
  }
}

const UNAUTHORIZED = {
  missing: "This call needs an API key: send Authorization: Bearer <API_KEY>.",
  malformed: "The Authorization header must be Bearer <API_KEY>.",
  unknown: "The API key is not known here; use one of the keys flowgen serve was started with.",
} as const;

/** What a preflight from a page whose origin may not call is told. */
const FOREIGN_ORIGIN =
  "Pages of this origin may not call this server: start flowgen serve with --cors <origin> (or serve.cors in the config) to let them.";

/** The shape of a flow path, to tell "no such flow" from "no such path" in a 404. */
const FLOW_PATH = /^\/v1\/(@[a-z0-9-]+\/[a-z0-9-]+)$/;
/** Paths echoed in messages are cut here: they are the caller's text. */
const ECHOED_PATH_LENGTH = 200;

export interface AdmissionOptions {
  /** The keys accepted now, read for every request: a key removed while serving stops at once. */
  readonly keys: () => Keyring;
  readonly limiter: RateLimiter;
  readonly flows: readonly FlowModel[];
  /** Whether the server is stopping: calls then get 503 and their connection is closed. */
  readonly closing: () => boolean;
  /** Paths a GET may read without a key: the API reference and the OpenAPI document. */
  readonly publicPaths: ReadonlySet<string>;
  /** The origins whose pages may call: decides a preflight's answer. */
  readonly cors: CorsPolicy;
}

/**
 * The `onRequest` hook that decides, before the body is read, whether a request may run a flow,
 * in this order: a server that is stopping (503), a well-formed head (request-head.ts: 400 for a
 * repeated Authorization, Host or Content-Type or no Host), a CORS preflight for a flow (204, or
 * 403 for an origin not allowed), a GET of a public path (the docs), a known key (401), the key's
 * rate limit (429), an expectation this server meets (417), a flow of an org the key may call
 * (403), a path that is exactly a flow's (404), POST (405), a body in no coding (415). The flow it
 * admits is the one the same reading of the path found, and the route runs only what this hook
 * left on `request.flow`: no other code reads the URL, so no spelling of a path can pass one check
 * and reach another flow. Every other request needs a key, whatever its path: only a real
 * preflight (a browser asks, without credentials, whether it may call) and a GET of a page that
 * describes the flows pass without one, decided from the same reading of the path. A client
 * waiting with `Expect: 100-continue` is told to send its body only once all of this passed.
 *
 * @example
 * app.addHook("onRequest", createAdmission({ keys: () => keyring, limiter, flows: model.flows, closing: () => false }));
 */
export function createAdmission(options: AdmissionOptions): onRequestHookHandler {
  const { keys, limiter } = options;
  const byPath = new Map(
    options.flows.map((flow) => [flow.httpPath, { flow, org: `@${flow.org}` }]),
  );
  const authenticate = createConnectionAuth();
  return function admit(request, reply, done) {
    reply.header("x-request-id", request.id);
    const path = requestPath(request.url);
    request.targetPath = path;
    if (options.closing())
      return done(
        new HttpError(503, "The server is stopping; retry on a new connection.", {
          headers: { "retry-after": "1" },
        }),
      );
    const malformed = checkRequestHead(request.raw);
    if (malformed !== undefined) return done(malformed);
    const route = path === undefined ? undefined : byPath.get(path);
    if (route !== undefined && isPreflight(request))
      return answerPreflight(request, reply, options.cors, done);
    if (request.method === "GET" && path !== undefined && options.publicPaths.has(path))
      return done(checkExpectation(request.raw));
    const keyring = keys();
    const auth = authenticate(keyring, request);
    if (!auth.ok) return done(unauthorized(auth.reason));
    request.keyName = auth.name;
    // Every authenticated call counts against its key, one to a flow it may not call too. An
    // expectation this server does not meet is judged only now: without a good key, a caller
    // learns nothing but its 401, and with one, the 417 carries the RateLimit headers.
    const refused = takeToken(limiter, auth.name, reply) ?? checkExpectation(request.raw);
    if (refused !== undefined) return done(refused);
    if (route !== undefined && !keyring.allows(auth, route.org))
      return done(new HttpError(403, `This API key may not call flows of ${route.org}.`));
    if (route === undefined)
      return done(
        notFound(request.method, path, keyring, visibleFlows(options.flows, keyring, auth)),
      );
    if (request.method !== "POST")
      return done(
        new HttpError(405, `${route.flow.id} is run with POST.`, { headers: { allow: "POST" } }),
      );
    const encoded = checkBodyCoding(request.headers);
    if (encoded !== undefined) return done(encoded);
    request.flow = route.flow;
    if (wantsContinue(request.raw)) reply.raw.writeContinue();
    done();
  };
}

/** A preflight for a flow: 204 for an origin that may call, else 403; 417 for an unknown Expect. */
function answerPreflight(
  request: FastifyRequest,
  reply: FastifyReply,
  cors: CorsPolicy,
  done: HookHandlerDoneFunction,
): void {
  if (!cors.allows(request.headers.origin ?? "")) return done(new HttpError(403, FOREIGN_ORIGIN));
  const unmet = checkExpectation(request.raw);
  if (unmet !== undefined) return done(unmet);
  void reply.code(204).header("content-length", "0").send();
}

/**
 * A keep-alive connection that sends the Authorization header it sent before gets the answer that
 * header got, without the keyring's constant-time comparison, as long as the keys are the same:
 * once they change (the keys file was edited), the header is checked again, so a removed key stops
 * on connections that are already open too. Comparing with the connection's own previous header
 * tells its sender nothing new.
 */
function createConnectionAuth(): (keyring: Keyring, request: FastifyRequest) => AuthResult {
  const lastAuth = new WeakMap<
    object,
    {
      readonly keyring: Keyring;
      readonly header: string | undefined;
      readonly result: AuthResult;
    }
  >();
  return (keyring, request) => {
    const header = request.headers.authorization;
    const socket = request.raw.socket;
    const last = lastAuth.get(socket);
    if (last !== undefined && last.keyring === keyring && last.header === header)
      return last.result;
    const result = keyring.authenticate(header);
    lastAuth.set(socket, { keyring, header, result });
    return result;
  };
}

function unauthorized(reason: keyof typeof UNAUTHORIZED): HttpError {
  const challenge =
    reason === "unknown"
      ? 'Bearer realm="flowgen", error="invalid_token"'
      : 'Bearer realm="flowgen"';
  return new HttpError(401, UNAUTHORIZED[reason], { headers: { "www-authenticate": challenge } });
}

/** Takes one token from the key's bucket and sets the RateLimit-* headers; the 429 when none is left. */
function takeToken(
  limiter: RateLimiter,
  keyName: string,
  reply: FastifyReply,
): HttpError | undefined {
  const rate = limiter.take(keyName);
  reply.header("ratelimit-limit", String(rate.limit));
  reply.header("ratelimit-remaining", String(rate.remaining));
  reply.header("ratelimit-reset", String(rate.resetSeconds));
  if (rate.allowed) return undefined;
  return new HttpError(
    429,
    `Too many requests for this API key; retry after ${rate.retryAfterSeconds} s.`,
    {
      headers: { "retry-after": String(rate.retryAfterSeconds) },
    },
  );
}

/** The flows a key may call: a 404 lists them, and no others. */
function visibleFlows(
  flows: readonly FlowModel[],
  keyring: Keyring,
  auth: Extract<AuthResult, { ok: true }>,
): string[] {
  return flows.filter((flow) => keyring.allows(auth, `@${flow.org}`)).map((flow) => flow.id);
}

function notFound(
  method: string,
  path: string | undefined,
  keyring: Keyring,
  flowIds: readonly string[],
): HttpError {
  const flows =
    flowIds.length === 0
      ? "this key may call none"
      : `the flows this key may call are: ${flowIds.join(", ")}`;
  // Judged whole, before any cut: a key cut in two would pass withhold-keys.ts in halves.
  const echoed = path === undefined || keyring.mentionsKey(path) ? undefined : path;
  const id = echoed === undefined ? undefined : FLOW_PATH.exec(echoed)?.[1];
  if (id !== undefined && id.length <= ECHOED_PATH_LENGTH)
    return new HttpError(404, `There is no flow ${id} here; ${flows}.`);
  const shown =
    echoed === undefined
      ? "this request target"
      : JSON.stringify(
          echoed.length > ECHOED_PATH_LENGTH ? `${echoed.slice(0, ECHOED_PATH_LENGTH)}…` : echoed,
        );
  return new HttpError(
    404,
    `Nothing at ${method} ${shown}. Flows are run with POST /v1/@<org>/<flow-name>, spelled exactly: lowercase, no percent-escapes, no trailing slash; ${flows}.`,
  );
}
