import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Issue, Rules } from "../issues.js";
import { createServeApp } from "./app.js";
import { parseCorsOrigins, type CorsPolicy } from "./cors.js";
import type { FaultPlan } from "./faults.js";
import { loadHandlers, type Handlers } from "./handlers.js";
import { loadLiveKeys, type LiveKeys } from "./live-keys.js";
import { createRateLimiter } from "./rate-limit.js";
import { readServedModel, sampleCall, type ServedModel } from "./serve-model.js";
import { reloadSpecsOnChange, type Serving } from "./spec-reload.js";
import { loadTls, type TlsMaterial } from "./tls.js";

export interface ServeOptions {
  readonly specs: string;
  readonly cwd: string;
  readonly port: number;
  readonly host: string;
  /** Folder of handler modules (`@org/flow.ts`), relative to `cwd`. */
  readonly handlers: string;
  /** Load changed, new and deleted handler files again while running, serve edited specs, and read an edited keys file. */
  readonly watch: boolean;
  /** Keys file, relative to `cwd`. */
  readonly keysFile?: string | undefined;
  /** The value of FLOWGEN_SERVE_KEYS. */
  readonly keysEnv?: string | undefined;
  /** Requests per second per key, and how many may come at once. */
  readonly rate: number;
  readonly burst: number;
  readonly bodyLimit: number;
  /** Deepest nesting of arrays and objects a request body may have (400 beyond). */
  readonly maxDepth: number;
  /** Time a client has to send the request headers, and the whole request, in ms (408 after). */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /** HTTPS from PEM files (relative to `cwd`), or from a fresh self-signed certificate for localhost. */
  readonly tls?:
    | {
        readonly certFile?: string | undefined;
        readonly keyFile?: string | undefined;
        readonly selfSigned?: boolean | undefined;
      }
    | undefined;
  /** Seed of the mock data and of the injected faults. */
  readonly seed: number;
  /** Severities the project chose for the spec checks (the config file's `rules`). */
  readonly rules?: Rules | undefined;
  /** Latency and errors to inject (`parseFaultFlags`); none by default. */
  readonly faults?: FaultPlan | undefined;
  /** Waits out injected latency; tests pass a clock of their own. Default: a timer. */
  readonly delay?: ((ms: number) => Promise<unknown>) | undefined;
  readonly log?: ((entry: Record<string, unknown>) => void) | undefined;
  /** Messages for people (handler reloads). */
  readonly say?: ((line: string) => void) | undefined;
  /** Origins whose pages may call, comma-separated (`:*` any port, `*` any origin). Default: loopback pages. */
  readonly cors?: string | undefined;
  /** Serve the API reference at /docs and /openapi.json, without a key. Default true. */
  readonly docs?: boolean | undefined;
}

/** How long stopping waits for requests in flight before it closes their connections. */
export const CLOSE_GRACE_MS = 10_000;

export type ServeResult =
  | {
      readonly ok: true;
      readonly url: string;
      readonly port: number;
      /** The key made for this run when none was configured. */
      readonly devKey: string | undefined;
      /** The API reference page, unless turned off. */
      readonly docsUrl: string | undefined;
      /** With HTTPS: the certificate file clients should trust (NODE_EXTRA_CA_CERTS or their fetch's CA). */
      readonly certFile: string | undefined;
      readonly flows: readonly string[];
      /** A call to show people: the first flow with an example, and that example's input. */
      readonly sample: { readonly flowId: string; readonly input: unknown };
      readonly app: FastifyInstance;
      /**
       * Stops taking requests, lets the ones in flight finish, then resolves. A request still
       * running after `graceMs` (default CLOSE_GRACE_MS: a handler that never answers) has its
       * connection closed, so that stopping always ends.
       */
      close(options?: { readonly graceMs?: number }): Promise<void>;
    }
  | { readonly ok: false; readonly issues: readonly Issue[] };

/**
 * Starts the flow invocation service for the specs in `options.specs`: checks them as
 * `flowgen generate` does, loads keys and handlers, and listens. Port 0 picks a free port.
 *
 * @example
 * const server = await startServe({ ...defaults, specs: "specs", cwd: process.cwd(), port: 0 });
 * if (server.ok) console.log(server.url);
 */
export async function startServe(options: ServeOptions): Promise<ServeResult> {
  const say = options.say ?? (() => undefined);
  const first = await readServedModel(options, say);
  if (!first.ok) return first;
  const cors = parseCorsOrigins(options.cors);
  const parts = await loadServeParts(
    options,
    first.model.flows.map((flow) => flow.id),
    say,
  );
  const createApp = appFactory(options, parts, cors);
  const app = await listenOn(options, () => createApp(first)).catch(parts.closeOnError);
  const serving: Serving = options.watch
    ? await reloadSpecsOnChange({
        ...options,
        app,
        model: first.model,
        handlers: parts.handlers,
        createApp,
        say,
      })
    : { app, model: first.model, close: () => Promise.resolve() };
  return describeServer(options, app, parts, serving);
}

/** What a server runs with besides its model: keys, TLS material and handlers. */
interface ServeParts {
  readonly keys: LiveKeys;
  readonly tls: TlsMaterial | undefined;
  readonly handlers: Handlers;
  /** Stops the watchers of keys and handlers and rethrows: for a server that does not start. */
  readonly closeOnError: (error: unknown) => Promise<never>;
}

/**
 * Loads keys, TLS material and handlers. Their watchers keep the process alive: when a later one
 * fails (a bad certificate, a handler that does not load), the earlier ones are stopped.
 */
async function loadServeParts(
  options: ServeOptions,
  flowIds: readonly string[],
  say: (line: string) => void,
): Promise<ServeParts> {
  const keys = await loadLiveKeys({
    env: options.keysEnv,
    file: options.keysFile,
    cwd: options.cwd,
    watch: options.watch,
    say,
  });
  const stopKeys = async (error: unknown): Promise<never> => {
    await keys.close();
    throw error;
  };
  const tls = await loadTls({ ...options.tls, cwd: options.cwd }).catch(stopKeys);
  const handlers = await loadHandlers(path.resolve(options.cwd, options.handlers), flowIds, {
    watch: options.watch,
    log: say,
    cwd: options.cwd,
  }).catch(stopKeys);
  const closeOnError = async (error: unknown): Promise<never> => {
    await handlers.close();
    return stopKeys(error);
  };
  return { keys, tls, handlers, closeOnError };
}

/** Makes the app for a model: every app of one run shares keys, handlers and rate-limit buckets. */
function appFactory(
  options: ServeOptions,
  parts: ServeParts,
  cors: CorsPolicy,
): (served: ServedModel) => FastifyInstance {
  // One limiter for the run: an app rebuilt for edited specs keeps every key's bucket.
  const limiter = createRateLimiter({ rate: options.rate, burst: options.burst });
  return (served) =>
    createServeApp({
      model: served.model,
      checks: served.checks,
      keys: parts.keys.current,
      limiter,
      bodyLimit: options.bodyLimit,
      maxDepth: options.maxDepth,
      timeouts: { headersMs: options.headersTimeoutMs, requestMs: options.requestTimeoutMs },
      https: parts.tls,
      handlers: parts.handlers,
      seed: options.seed,
      faults: options.faults,
      delay: options.delay,
      log: options.log,
      cors,
      docs: options.docs ?? true,
    });
}

/** Creates the first app and listens (a RangeError for a limit out of range, EADDRINUSE…). */
async function listenOn(
  options: ServeOptions,
  createApp: () => FastifyInstance,
): Promise<FastifyInstance> {
  const app = await Promise.resolve().then(createApp);
  await app.listen({ port: options.port, host: options.host });
  return app;
}

/** The running server as `startServe` resolves it. */
function describeServer(
  options: ServeOptions,
  app: FastifyInstance,
  parts: ServeParts,
  serving: Serving,
): Extract<ServeResult, { ok: true }> {
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  const url = `${parts.tls ? "https" : "http"}://${host}:${port}`;
  return {
    ok: true,
    url,
    docsUrl: options.docs === false ? undefined : `${url}/docs/`,
    port,
    devKey: parts.keys.devKey,
    certFile: parts.tls?.certFile,
    get flows() {
      return serving.model.flows.map((flow) => flow.id);
    },
    get sample() {
      return sampleCall(serving.model);
    },
    get app() {
      return serving.app;
    },
    async close({ graceMs = CLOSE_GRACE_MS } = {}) {
      const force = setTimeout(() => app.server.closeAllConnections(), graceMs);
      try {
        // The serving app first, so answers in flight ask clients to drop their connections; then the server's owner.
        await serving.close();
        await parts.handlers.close();
        await parts.keys.close();
        await app.close();
      } finally {
        clearTimeout(force);
      }
    },
  };
}
