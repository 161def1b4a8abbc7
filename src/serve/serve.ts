import path from "node:path";
import type { FastifyInstance } from "fastify";
import { watch as watchFiles } from "chokidar";
import { formatIssue, sortIssues, type Issue } from "../issues.js";
import { buildModel, type ProjectModel } from "../model/build-model.js";
import { checkSpecs, type SpecSet } from "../spec/load-specs.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import { createServeApp } from "./app.js";
import { createRateLimiter } from "./rate-limit.js";
import type { FaultPlan } from "./faults.js";
import { compileFlowChecks, type FlowChecks } from "./flow-checks.js";
import { loadHandlers } from "./handlers.js";
import { loadLiveKeys } from "./live-keys.js";
import { loadTls } from "./tls.js";

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
  /** Latency and errors to inject (`parseFaultFlags`); none by default. */
  readonly faults?: FaultPlan | undefined;
  readonly log?: ((entry: Record<string, unknown>) => void) | undefined;
  /** Messages for people (handler reloads). */
  readonly say?: ((line: string) => void) | undefined;
}

export type ServeResult =
  | {
      readonly ok: true;
      readonly url: string;
      readonly port: number;
      /** The key made for this run when none was configured. */
      readonly devKey: string | undefined;
      /** With HTTPS: the certificate file clients should trust (NODE_EXTRA_CA_CERTS or their fetch's CA). */
      readonly certFile: string | undefined;
      readonly flows: readonly string[];
      /** A call to show people: the first flow with an example, and that example's input. */
      readonly sample: { readonly flowId: string; readonly input: unknown };
      readonly app: FastifyInstance;
      /** Stops taking requests, lets the ones in flight finish, then resolves. */
      close(): Promise<void>;
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
  const sources = await readSpecFiles(options.specs, options.cwd);
  const checked = checkSpecs(sources);
  if (!checked.ok) return checked;
  const first = compileModel(checked.specs);
  if (!first.ok) return first;
  let model = first.model;
  const say = options.say ?? (() => undefined);
  const keys = await loadLiveKeys({
    env: options.keysEnv,
    file: options.keysFile,
    cwd: options.cwd,
    watch: options.watch,
    say,
  });
  // One limiter for the run: an app rebuilt for edited specs keeps every key's bucket.
  const limiter = createRateLimiter({ rate: options.rate, burst: options.burst });
  // Watchers keep the process alive: stop them when the server does not start (a bad certificate,
  // a handler that does not load, --max-depth 0, a port in use).
  const stopKeys = async (error: unknown): Promise<never> => {
    await keys.close();
    throw error;
  };
  const tls = await loadTls({ ...options.tls, cwd: options.cwd }).catch(stopKeys);
  const handlers = await loadHandlers(
    path.resolve(options.cwd, options.handlers),
    model.flows.map((flow) => flow.id),
    { watch: options.watch, log: say, cwd: options.cwd },
  ).catch(stopKeys);
  const stopHandlers = async (error: unknown): Promise<never> => {
    await handlers.close();
    return stopKeys(error);
  };
  const createApp = (current: CompiledModel) =>
    createServeApp({
      model: current.model,
      checks: current.checks,
      keys: keys.current,
      limiter,
      bodyLimit: options.bodyLimit,
      maxDepth: options.maxDepth,
      timeouts: { headersMs: options.headersTimeoutMs, requestMs: options.requestTimeoutMs },
      https: tls,
      handlers,
      seed: options.seed,
      faults: options.faults,
      log: options.log,
    });
  const app = await Promise.resolve(first).then(createApp).catch(stopHandlers);
  await app.listen({ port: options.port, host: options.host }).catch(stopHandlers);
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  // Spec edits take effect through a new app built from the new model (routes, schemas, mocks),
  // answering on the first app's server: same port, same TLS, keep-alive connections kept.
  let current = app;
  const specWatcher = options.watch
    ? await watchSpecs(
        path.resolve(options.cwd, options.specs),
        async () => {
          const reread = checkSpecs(await readSpecFiles(options.specs, options.cwd));
          const compiled = reread.ok ? compileModel(reread.specs) : reread;
          if (!compiled.ok) {
            for (const issue of sortIssues(compiled.issues)) say(formatIssue(issue));
            say(
              `flowgen serve: ${compiled.issues.length} problem${compiled.issues.length === 1 ? "" : "s"} in ${options.specs}; still serving the specs as they were`,
            );
            return;
          }
          const next = compiled.model;
          await handlers.addFlows(next.flows.map((flow) => flow.id));
          const nextApp = createApp(compiled);
          await nextApp.ready();
          if (current === app) {
            app.server.removeAllListeners("request");
            app.server.on("request", (request, reply) => current.routing(request, reply));
          }
          const previous = current;
          [current, model] = [nextApp, next];
          if (previous !== app) await previous.close();
          say(
            `flowgen serve: reloaded the specs: ${next.flows.length} flows (${next.flows.map((flow) => flow.id).join(", ")})`,
          );
        },
        say,
      )
    : undefined;
  return {
    ok: true,
    url: `${tls ? "https" : "http"}://${host}:${port}`,
    port,
    devKey: keys.devKey,
    certFile: tls?.certFile,
    get flows() {
      return model.flows.map((flow) => flow.id);
    },
    get sample() {
      return sampleCall(model);
    },
    get app() {
      return current;
    },
    async close() {
      await specWatcher?.close();
      await handlers.close();
      await keys.close();
      // The serving app first, so answers in flight ask clients to drop their connections; then the server's owner.
      if (current !== app) await current.close();
      await app.close();
    },
  };
}

type CompiledModel = {
  readonly ok: true;
  readonly model: ProjectModel;
  readonly checks: ReadonlyMap<string, FlowChecks>;
};

/** The model of checked specs, with each flow's request checks compiled; a schema they cannot compile is a spec problem. */
function compileModel(
  specs: SpecSet,
): CompiledModel | { readonly ok: false; readonly issues: Issue[] } {
  const model = buildModel(specs);
  const compiled = compileFlowChecks(model);
  if (compiled.ok) return { ok: true, model, checks: compiled.checks };
  const files = new Map(specs.flows.map((flow) => [flow.id, flow.displayPath]));
  const issues = compiled.failures.map(({ flow, which, message }): Issue => ({
    code: "invalid-schema",
    file: files.get(flow.id) ?? flow.specPath,
    pointer: `/${which}`,
    message: `the ${which} schema cannot be compiled for request checks: ${message}; fix the schema (a "pattern" must be an ECMAScript regular expression with the u flag)`,
  }));
  return { ok: false, issues };
}

/** Runs `reload` once the spec files have been quiet for a moment, one reload at a time. */
async function watchSpecs(
  dir: string,
  reload: () => Promise<void>,
  say: (line: string) => void,
): Promise<{ close(): Promise<void> }> {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const watcher = watchFiles(dir, { ignoreInitial: true, atomic: true });
  watcher.on("all", (_event, file) => {
    if (!/\.(json|ya?ml)$/.test(file)) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(reload).catch((error: unknown) => {
        say(
          `flowgen serve: the specs changed but could not be served (${error instanceof Error ? error.message : String(error)}); restart flowgen serve`,
        );
      });
    }, 100);
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return {
    close: async () => {
      clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}

function sampleCall(model: ReturnType<typeof buildModel>): { flowId: string; input: unknown } {
  const flow =
    model.flows.find((candidate) => (candidate.examples?.length ?? 0) > 0) ?? model.flows[0];
  return { flowId: flow?.id ?? "@org/flow", input: flow?.examples?.[0]?.input ?? {} };
}
