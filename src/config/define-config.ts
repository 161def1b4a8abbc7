import type { RuleCode, Severity } from "../issues.js";

/**
 * What `flowgen.config.{ts,mts,js,mjs,json}` may say. Every key is optional and named like its
 * flag in camelCase (`--base-url` is `baseUrl`); a flag given on the command line wins over the file.
 * Paths are relative to the folder the config file is in.
 */
export interface FlowgenConfig {
  /** Folder of flow specs. Default `specs`. */
  readonly specs?: string;
  /** Output folder; flowgen owns it. Default `generated`. */
  readonly out?: string;
  /** Default base URL compiled into the clients and the OpenAPI `servers` entry (http or https). */
  readonly baseUrl?: string;
  /** Also compile each flow's schemas into validators the clients run. Default false. */
  readonly validators?: boolean;
  /** Reuse work from earlier runs whose inputs did not change. Default true. */
  readonly cache?: boolean;
  /** Where the render cache lives. Default `node_modules/.cache/flowgen`. */
  readonly cacheDir?: string;
  /** `generate` and `diff` exit 4 (and `generate` writes nothing) when the new contract breaks callers of a flow. Default false. */
  readonly failOnBreaking?: boolean;
  /**
   * Severities of the problems that may have one, as ESLint and Redocly rules: `"error"` stops the
   * run, `"warn"` prints and goes on, `"off"` says nothing. Structural problems (a `$ref` that
   * leads nowhere, a root that is not an object) are always errors.
   *
   * @example
   * rules: { "invalid-schema-value": "warn" }
   */
  readonly rules?: Readonly<Partial<Record<RuleCode, Severity>>>;
  /** Settings of `flowgen serve`. */
  readonly serve?: FlowgenServeConfig;
}

export interface FlowgenServeConfig {
  /** Port to listen on (0: any free port). Default 8787. */
  readonly port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  readonly host?: string;
  /** Folder of flow handlers. Default `handlers`. */
  readonly handlers?: string;
  /** Reload handlers, specs and the keys file when their files change. Default true. */
  readonly watch?: boolean;
  /** JSON keys file. */
  readonly keysFile?: string;
  /** Requests per second per key. Default 10. */
  readonly rate?: number;
  /** Requests a key may send at once. Default 20. */
  readonly burst?: number;
  /** Largest request body in bytes. Default 1048576. */
  readonly bodyLimit?: number;
  /** Deepest nesting of arrays and objects in a request body. Default 64. */
  readonly maxDepth?: number;
  /** Milliseconds a client has to send the request headers (then 408). Default 10000. */
  readonly headersTimeout?: number;
  /** Milliseconds a client has to send the whole request (then 408). Default 30000. */
  readonly requestTimeout?: number;
  /** Seed of the mock data and of the injected faults. Default 1. */
  readonly seed?: number;
  /** Origins whose pages may call, comma-separated (`:*` any port, `*` any origin). Default: pages on loopback (`http://localhost:*`, `http://127.0.0.1:*`, `http://[::1]:*`). */
  readonly cors?: string;
  /** Serve the API reference at /docs and the OpenAPI document at /openapi.json, without a key. Default true. */
  readonly docs?: boolean;
}

/**
 * Types a flowgen config file. It returns its argument: the point is the editor's completion and
 * checking.
 *
 * @example
 * // flowgen.config.ts
 * import { defineConfig } from "flowgen-cli";
 * export default defineConfig({ specs: "specs", out: "src/generated", validators: true });
 */
export function defineConfig(config: FlowgenConfig): FlowgenConfig {
  return config;
}
