import { serve, type ServeApiOptions } from "../api/serve.js";
import { withCode, type IssueCode } from "../issues.js";
import { EXIT, pickFlags, plural, reportIssues, whereIssues, type Command } from "./command.js";

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
    const { KeysError } = await import("../serve/keys.js");
    const { HandlerLoadError } = await import("../serve/handlers.js");
    const { TlsError } = await import("../serve/tls.js");
    const { parseFaultFlags } = await import("../serve/faults.js");
    let server: Awaited<ReturnType<typeof serve>>;
    try {
      server = await serve({
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
        faults: parseFaultFlags({
          latency: args["latency"] as string | undefined,
          errorRate: args["error-rate"] as string | undefined,
          errorStatus: args["error-status"] as string | undefined,
          rateLimitRate: args["rate-limit-rate"] as string | undefined,
          fault: args["fault"] as string[] | undefined,
          devFaults: args["dev-faults"] as boolean,
        }),
        tls: {
          certFile: args["tls-cert"] as string | undefined,
          keyFile: args["tls-key"] as string | undefined,
          selfSigned: args["tls-self-signed"] as boolean,
        },
        log: (entry) => io.out(JSON.stringify({ time: new Date().toISOString(), ...entry })),
        say: (line) => io.err(line),
      });
    } catch (error) {
      // Bad keys, a handler that does not load, or an option out of range (--rate 0, --error-rate 2): say so, exit 2.
      const code: IssueCode | undefined =
        error instanceof KeysError
          ? "invalid-keys"
          : error instanceof HandlerLoadError
            ? "invalid-handler"
            : error instanceof TlsError
              ? "invalid-tls"
              : error instanceof RangeError
                ? "invalid-option"
                : undefined;
      if (code !== undefined) {
        // One line per problem, each with its link, as reportIssues prints problems in files.
        const problems = error instanceof KeysError ? error.problems : [(error as Error).message];
        for (const problem of problems) io.err(withCode(`flowgen serve: ${problem}`, code));
        return EXIT.invalid;
      }
      const listening = describeListenError(error);
      if (listening !== undefined) {
        io.err(withCode(`flowgen serve: ${listening}`, "cannot-listen"));
        return EXIT.invalid;
      }
      throw error;
    }
    if (!server.ok) {
      const specs = (args["specs"] as string | undefined) ?? "specs";
      return reportIssues(
        io,
        server.issues,
        (count) => `flowgen serve: ${count}${whereIssues(server.issues, specs)}; not started.`,
      );
    }
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
    // Runs until SIGTERM or SIGINT; then requests in flight finish before the process ends.
    const signal = await stopped();
    io.err(`flowgen serve: ${signal}: finishing requests in flight, then stopping`);
    await server.close();
    return EXIT.ok;
  },
};

/**
 * Why the server could not listen, as a sentence, when the host or port given is the reason (a
 * mistake to fix, not a bug): undefined for anything else.
 */
function describeListenError(error: unknown): string | undefined {
  if (!(error instanceof Error) || !("code" in error)) return undefined;
  const { code } = error;
  const address = "hostname" in error ? String(error.hostname) : undefined;
  switch (code) {
    case "EADDRINUSE":
      return `the port is in use (${error.message}); pass another --port (0 picks a free one)`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_FAIL":
    case "EAI_NONAME":
      return `the host ${JSON.stringify(address ?? "")} does not resolve to an address (${code}); pass --host with an address of this machine, such as 127.0.0.1, localhost or 0.0.0.0`;
    case "EADDRNOTAVAIL":
      return `cannot listen on ${describeAddress(error)}: it is not an address of this machine; pass --host with one that is, such as 127.0.0.1 or 0.0.0.0`;
    case "EACCES":
    case "EPERM":
      return `not allowed to listen on ${describeAddress(error)} (${code}): ports below 1024 need privileges; pass a --port of 1024 or above (0 picks a free one)`;
    default:
      return undefined;
  }
}

function describeAddress(error: Error): string {
  const { address, port } = error as { address?: unknown; port?: unknown };
  if (typeof address !== "string") return "that address";
  return typeof port === "number" ? `${address}:${port}` : address;
}
