import { serve, type ServeApiOptions } from "../api/serve.js";
import type { FaultFlags } from "../serve/faults.js";
import type { ServeResult } from "../serve/serve.js";
import {
  EXIT,
  pickFlags,
  plural,
  reportIssues,
  whereIssues,
  type Command,
  type Io,
} from "./command.js";
import { describeStartError } from "./serve-start-error.js";

/** `flowgen serve`: the flow invocation service, locally. */
export const serveCommand: Command = {
  usage: "serve",
  describe:
    "Run the flow invocation service locally from the specs: auth, rate limits, validation, your handlers or mocks",
  options: {
    specs: { type: "string", defaultDescription: "specs", describe: "Folder of flow specs" },
    port: {
      type: "number",
      defaultDescription: "8787",
      describe: "Port to listen on (0: any free port)",
    },
    host: { type: "string", defaultDescription: "127.0.0.1", describe: "Address to listen on" },
    handlers: {
      type: "string",
      defaultDescription: "handlers",
      describe: "Folder of flow handlers (@org/flow.ts|js); flows without one answer with mocks",
    },
    watch: {
      type: "boolean",
      defaultDescription: "true",
      describe: "Reload handlers, specs and the keys file when they change (--no-watch: load once)",
    },
    "keys-file": {
      type: "string",
      describe:
        'JSON keys file: { "keys": [{ "key", "orgs"?, "name"? }] }; also FLOWGEN_SERVE_KEYS="key[:@org+@org],…"',
    },
    rate: { type: "number", defaultDescription: "10", describe: "Requests per second per key" },
    burst: {
      type: "number",
      defaultDescription: "20",
      describe: "Requests a key may send at once",
    },
    "body-limit": {
      type: "number",
      defaultDescription: "1048576",
      describe: "Largest request body in bytes",
    },
    "max-depth": {
      type: "number",
      defaultDescription: "64",
      describe: "Deepest nesting of arrays and objects in a request body",
    },
    "headers-timeout": {
      type: "number",
      defaultDescription: "10000",
      describe: "Milliseconds a client has to send the request headers (then 408)",
    },
    "request-timeout": {
      type: "number",
      defaultDescription: "30000",
      describe: "Milliseconds a client has to send the whole request (then 408)",
    },
    seed: {
      type: "number",
      defaultDescription: "1",
      describe: "Seed of the mock data and of the injected faults",
    },
    latency: {
      type: "string",
      describe:
        "Faults: add this many ms to each call, or a seeded random delay in a range: 100-300",
    },
    "error-rate": {
      type: "string",
      describe: "Faults: share of calls (0..1) answered with --error-status",
    },
    "error-status": {
      type: "string",
      describe: "Faults: 503 (with Retry-After: 1, the default) or 500",
    },
    "rate-limit-rate": {
      type: "string",
      describe: "Faults: share of calls (0..1) answered with a forced 429 (Retry-After: 1)",
    },
    fault: {
      type: "string",
      array: true,
      describe:
        'Faults for one flow, repeatable: "@acme/qa:latency=200,error=0.5,status=500,429=0.1"',
    },
    "dev-faults": {
      type: "boolean",
      default: true,
      describe:
        "Let a request's X-Flowgen-Fault header (latency=200, error=503, 429) set its faults (--no-dev-faults: ignore it)",
    },
    "tls-cert": { type: "string", describe: "HTTPS: certificate (PEM file); needs --tls-key" },
    "tls-key": { type: "string", describe: "HTTPS: private key (PEM file)" },
    cors: {
      type: "string",
      defaultDescription: "http://localhost:*,http://127.0.0.1:*,http://[::1]:*",
      describe:
        "Origins whose pages may call, comma-separated (:* any port, '*' any origin); preflights need no key",
    },
    docs: {
      type: "boolean",
      defaultDescription: "true",
      describe: "Serve the API reference at /docs and /openapi.json without a key (--no-docs: off)",
    },
    "tls-self-signed": {
      type: "boolean",
      default: false,
      describe: "HTTPS with a fresh self-signed certificate for localhost (development)",
    },
  },
  examples: [
    ["$0 serve", "Serve specs/ on http://127.0.0.1:8787 with a printed dev key"],
    [
      "$0 serve --latency 100-300 --error-rate 0.1",
      "Slow every call down and fail one in ten with 503, the same way each run (--seed)",
    ],
  ],
  async run(args, { cwd, io, stopped }) {
    let server: ServeResult;
    try {
      server = await serve(await readServeOptions(args, cwd, io));
    } catch (error) {
      const refusal = await describeStartError(error);
      if (refusal === undefined) throw error;
      for (const line of refusal) io.err(line);
      return EXIT.invalid;
    }
    if (!server.ok) {
      const specs = (args["specs"] as string | undefined) ?? "specs";
      return reportIssues(
        io,
        server.issues,
        (count) => `flowgen serve: ${count}${whereIssues(server.issues, specs)}; not started.`,
      );
    }
    announceServer(io, server);
    // Runs until SIGTERM or SIGINT; then requests in flight finish before the process ends.
    const signal = await stopped();
    io.err(`flowgen serve: ${signal}: finishing requests in flight, then stopping`);
    await server.close();
    return EXIT.ok;
  },
};

/** The options of `serve` from the command line; throws a RangeError for a fault flag out of range. */
async function readServeOptions(
  args: Readonly<Record<string, unknown>>,
  cwd: string,
  io: Io,
): Promise<ServeApiOptions> {
  const { parseFaultFlags } = await import("../serve/faults.js");
  return {
    cwd,
    ...pickFlags<ServeApiOptions>(args, [
      "config",
      "specs",
      "port",
      "host",
      "handlers",
      "watch",
      "keysFile",
      "rate",
      "burst",
      "bodyLimit",
      "maxDepth",
      "headersTimeout",
      "requestTimeout",
      "seed",
      "cors",
      "docs",
    ]),
    keysEnv: process.env["FLOWGEN_SERVE_KEYS"],
    faults: parseFaultFlags(readFaultFlags(args)),
    tls: {
      certFile: args["tls-cert"] as string | undefined,
      keyFile: args["tls-key"] as string | undefined,
      selfSigned: args["tls-self-signed"] as boolean,
    },
    log: (entry) => io.out(JSON.stringify({ time: new Date().toISOString(), ...entry })),
    say: (line) => io.err(line),
  };
}

/** The fault flags as given: `parseFaultFlags` checks their values. */
function readFaultFlags(args: Readonly<Record<string, unknown>>): FaultFlags {
  return {
    latency: args["latency"] as string | undefined,
    errorRate: args["error-rate"] as string | undefined,
    errorStatus: args["error-status"] as string | undefined,
    rateLimitRate: args["rate-limit-rate"] as string | undefined,
    fault: args["fault"] as string[] | undefined,
    devFaults: args["dev-faults"] as boolean,
  };
}

/** Where the server listens, the key to call it with, and a curl line that does. */
function announceServer(io: Io, server: Extract<ServeResult, { ok: true }>): void {
  const key = server.devKey ?? "<API_KEY>";
  io.err(
    `flowgen serve: ${plural(server.flows.length, "flow")} on ${server.url} (POST /v1/@org/flow-name)${server.docsUrl === undefined ? "" : `; reference at ${server.docsUrl}`}`,
  );
  if (server.devKey !== undefined)
    io.err(`flowgen serve: no keys configured; this run's dev key is ${server.devKey}`);
  if (server.certFile !== undefined) {
    io.err(
      `flowgen serve: HTTPS with the certificate in ${server.certFile}; clients trust it with NODE_EXTRA_CA_CERTS=${server.certFile} (curl: --cacert)`,
    );
  }
  const cacert = server.certFile === undefined ? "" : `--cacert ${server.certFile} `;
  io.err(
    `  curl -sS ${cacert}-X POST ${server.url}/v1/${server.sample.flowId} -H "Authorization: Bearer ${key}" -H "Content-Type: application/json" -d '${JSON.stringify(server.sample.input).replaceAll("'", "'\\''")}'`,
  );
}
