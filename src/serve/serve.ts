import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Issue } from "../issues.js";
import { buildModel } from "../model/build-model.js";
import { checkSpecs } from "../spec/load-specs.js";
import { readSpecFiles } from "../spec/read-spec-files.js";
import { createServeApp } from "./app.js";
import type { FaultPlan } from "./faults.js";
import { compileFlowChecks } from "./flow-checks.js";
import { loadHandlers } from "./handlers.js";
import { createKeyring, devKey, loadKeys, type KeyEntry } from "./keys.js";
import { loadTls } from "./tls.js";

export interface ServeOptions {
  readonly specs: string;
  readonly cwd: string;
  readonly port: number;
  readonly host: string;
  /** Folder of handler modules (`@org/flow.ts`), relative to `cwd`. */
  readonly handlers: string;
  /** Load changed handler files again while running. */
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
  readonly tls?: { readonly certFile?: string | undefined; readonly keyFile?: string | undefined; readonly selfSigned?: boolean | undefined } | undefined;
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
  const model = buildModel(checked.specs);
  const compiled = compileFlowChecks(model);
  if (!compiled.ok) {
    const files = new Map(checked.specs.flows.map((flow) => [flow.id, flow.displayPath]));
    const issues = compiled.failures.map(({ flow, which, message }): Issue => ({
      code: "invalid-schema",
      file: files.get(flow.id) ?? flow.specPath,
      pointer: `/${which}`,
      message: `the ${which} schema cannot be compiled for request checks: ${message}; fix the schema (a "pattern" must be an ECMAScript regular expression with the u flag)`,
    }));
    return { ok: false, issues };
  }
  const entries: KeyEntry[] = await loadKeys({ env: options.keysEnv, file: options.keysFile, cwd: options.cwd });
  const made = entries.length === 0 ? devKey() : undefined;
  const keyring = createKeyring(made === undefined ? entries : [{ key: made, name: "dev" }]);
  const say = options.say ?? (() => undefined);
  const tls = await loadTls({ ...options.tls, cwd: options.cwd });
  const handlers = await loadHandlers(
    path.resolve(options.cwd, options.handlers),
    model.flows.map((flow) => flow.id),
    { watch: options.watch, log: say },
  );
  // A watching handler set keeps the process alive: stop it when the server does not start (--rate 0, a port in use).
  const stopHandlers = (error: unknown): never => {
    handlers.close();
    throw error;
  };
  const app = await createServeApp({
    model,
    checks: compiled.checks,
    keyring,
    rateLimit: { rate: options.rate, burst: options.burst },
    bodyLimit: options.bodyLimit,
    maxDepth: options.maxDepth,
    timeouts: { headersMs: options.headersTimeoutMs, requestMs: options.requestTimeoutMs },
    https: tls,
    handlers,
    seed: options.seed,
    faults: options.faults,
    log: options.log,
  }).catch(stopHandlers);
  await app.listen({ port: options.port, host: options.host }).catch(stopHandlers);
  const address = app.server.address();
  const port = typeof address === "object" && address !== null ? address.port : options.port;
  const host = options.host.includes(":") ? `[${options.host}]` : options.host;
  return {
    ok: true,
    url: `${tls ? "https" : "http"}://${host}:${port}`,
    port,
    devKey: made,
    certFile: tls?.certFile,
    flows: model.flows.map((flow) => flow.id),
    sample: sampleCall(model),
    app,
    async close() {
      handlers.close();
      await app.close();
    },
  };
}

function sampleCall(model: ReturnType<typeof buildModel>): { flowId: string; input: unknown } {
  const flow = model.flows.find((candidate) => (candidate.examples?.length ?? 0) > 0) ?? model.flows[0];
  return { flowId: flow?.id ?? "@org/flow", input: flow?.examples?.[0]?.input ?? {} };
}
