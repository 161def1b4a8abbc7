// One flow's client: an openapi-fetch client with the key added by a middleware (auth.ts), and
// around its `POST` the calls that give every call a deadline and retries (call.ts).
import createClient, { type Client } from "openapi-fetch";
import { authMiddleware } from "./auth.js";
import { runCall, type CallContext } from "./call.js";
import { checkOptions, type ClientOptions } from "./config.js";
import type { FlowFailure } from "./errors.js";
import type { RateLimit } from "./limits.js";
import { retryPolicy } from "./retry.js";
import type { FlowValidators } from "./validate.js";

/** Where a flow lives on the platform, and its validators when generated with `--validators`. */
export interface FlowDefinition {
  readonly id: string;
  /** `/v1/@<org>/<flow-name>`: any other path is refused, since it could leave the base URL. */
  readonly path: string;
  readonly validators?: FlowValidators | undefined;
}

export interface RunOptions {
  signal?: AbortSignal | undefined;
  /** Deadline for this call in ms, over the client's `timeoutMs`. */
  timeoutMs?: number | undefined;
  /** Extra headers for this call only; they override `ClientOptions.headers`. */
  headers?: Record<string, string> | undefined;
  /**
   * The call may run twice safely: retry other server errors and dropped connections too. (A call
   * whose deadline passes is not retried: `timeoutMs` covers every attempt.)
   */
  idempotent?: boolean | undefined;
  /** Sent as `Idempotency-Key`, the same on every attempt; implies `idempotent`. */
  idempotencyKey?: string | undefined;
}

export type FlowResult<Output> =
  | {
      data: Output;
      error: undefined;
      response: Response;
      requestId: string | undefined;
    }
  | {
      data: undefined;
      error: FlowFailure;
      response: Response | undefined;
      requestId: string | undefined;
    };

// `{}` is the bound openapi-fetch's `Client<Paths>` takes.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FlowClient<Input, Output, Paths extends {} = {}> {
  readonly flowId: string;
  /** The openapi-fetch client every call goes through, typed with this flow's `paths`: `client.use(middleware)` adds to every attempt. */
  readonly client: Client<Paths>;
  /** The last rate-limit figures seen by any client of the same transport. */
  readonly rateLimit: RateLimit | undefined;
  /** Resolves with the output, throws a `FlowFailure` on any failure. */
  run(input: Input, options?: RunOptions): Promise<Output>;
  /** Never throws for HTTP, network or validation failures: returns `{ data, error, response, requestId }`. */
  call(input: Input, options?: RunOptions): Promise<FlowResult<Output>>;
}

/** What the project compiled into its generated modules: the base URL when one was configured. */
type FlowDefaults = { readonly baseUrl?: string | undefined };

/**
 * Creates a client for one flow: `client.POST(flow.path, { body })` on an openapi-fetch client
 * typed with `Paths`, with the API key sent by a middleware. Generated modules call this; you
 * normally call their `create…Client` wrappers instead. Throws a TypeError right away when the
 * API key or base URL is missing or malformed. `defaults` (the project's base URL, below
 * `options.baseUrl` and `FLOW_BASE_URL`) comes between the flow and the options, when given.
 *
 * @example
 * const qa = createFlowClient<QaInput, QaOutput, paths>(
 *   { id: "@acme/qa", path: "/v1/@acme/qa" },
 *   { baseUrl: "https://api.example.com" },
 *   { apiKey: process.env.FLOW_API_KEY },
 * );
 * const { answer } = await qa.run({ question: "Why?" });
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function createFlowClient<Input, Output, Paths extends {} = {}>(
  flow: FlowDefinition,
  options?: ClientOptions,
): FlowClient<Input, Output, Paths>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function createFlowClient<Input, Output, Paths extends {} = {}>(
  flow: FlowDefinition,
  defaults: FlowDefaults,
  options: ClientOptions | undefined,
): FlowClient<Input, Output, Paths>;
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function createFlowClient<Input, Output, Paths extends {} = {}>(
  flow: FlowDefinition,
  ...rest:
    | [options?: ClientOptions | undefined]
    | [defaults: FlowDefaults, options: ClientOptions | undefined]
): FlowClient<Input, Output, Paths> {
  // Told apart by count, not shape: both may hold `baseUrl`.
  const [defaults, options = {}] = rest.length === 2 ? rest : [{}, rest[0]];
  const { id: flowId, path, validators } = flow;
  const { keys, baseUrl, redact, validate } = checkOptions(
    flow,
    defaults.baseUrl,
    options,
  );
  const { fetch: customFetch, onEvent } = options;
  // Options left out rather than set to undefined: projects may use exactOptionalPropertyTypes.
  // A redirect is never followed (see redirect.ts), whatever fetch the Request reaches.
  const client = createClient<Paths>({
    baseUrl,
    redirect: "manual",
    ...(customFetch === undefined ? {} : { fetch: customFetch }),
    ...(options.headers === undefined ? {} : { headers: options.headers }),
  });
  const attemptKeys = new WeakMap<object, string>();
  // First, so that middleware of the caller's sees the request as it will be sent.
  if (options.auth !== false) client.use(authMiddleware(keys, attemptKeys));
  client.use(...(options.middleware ?? []));
  const transport = options.transport ?? { rateLimit: undefined };
  const context: CallContext = {
    flowId,
    path,
    redact,
    transport,
    onEvent,
    validators,
    validate,
    keys,
    attemptKeys,
    customFetch,
    post: client.POST as unknown as CallContext["post"],
    policy: retryPolicy(options.retry),
    timeoutMs: options.timeoutMs ?? 60_000,
  };
  const call = (input: Input, runOptions: RunOptions = {}) =>
    runCall<Output>(context, input, runOptions);
  return {
    flowId,
    client,
    get rateLimit() {
      return transport.rateLimit;
    },
    call,
    async run(input, runOptions) {
      const { data, error } = await call(input, runOptions);
      if (error) throw error;
      return data;
    },
  };
}
