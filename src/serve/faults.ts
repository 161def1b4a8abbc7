/**
 * Fault injection for `flowgen serve`: added latency, forced 429s and injected server errors, so
 * callers can try their timeouts, retries and fallbacks against the local server.
 *
 * Decisions are seeded and repeatable. Each flow has its own sequence: call n of flow F (counting
 * from 0 every call that reaches the faults, with or without the header) takes draws 3n, 3n+1 and 3n+2 of mulberry32 seeded
 * with the first 4 bytes (big-endian) of SHA-256("<seed>\0<F>"). Draw 3n picks the latency within
 * its range, 3n+1 the forced 429 (when below the 429 rate), 3n+2 the error (when below the error
 * rate and no 429 was picked). Every call takes all three draws whatever is configured, so the same
 * seed and the same calls give the same decisions, and changing one rate leaves the others' picks
 * where they were.
 */
import { createHash } from "node:crypto";
import { HttpError } from "./error-body.js";

/** A delay in whole milliseconds, drawn uniformly from `min`..`max` (both included). */
export interface LatencyRange {
  readonly min: number;
  readonly max: number;
}

export type InjectedErrorStatus = 500 | 503;

/** Faults for the calls of one flow or of all; a field left out injects nothing of that kind. */
export interface FaultSettings {
  readonly latency?: LatencyRange | undefined;
  /** 0..1: the share of calls answered with `errorStatus`. */
  readonly errorRate?: number | undefined;
  /** 503 (with Retry-After) when left out. */
  readonly errorStatus?: InjectedErrorStatus | undefined;
  /** 0..1: the share of calls answered with a forced 429. */
  readonly rateLimitRate?: number | undefined;
}

export interface FaultPlan {
  /** For every flow. */
  readonly all: FaultSettings;
  /** Per flow id; each field set here replaces the same field of `all` for that flow. */
  readonly flows: ReadonlyMap<string, FaultSettings>;
  /** Whether a request's X-Flowgen-Fault header sets the faults of that call. */
  readonly header: boolean;
}

/** The request header that sets the faults of one call (when the plan allows it). */
export const FAULT_HEADER = "x-flowgen-fault";

/** No planned faults; the header is accepted, as `flowgen serve` does by default. */
export const NO_FAULTS: FaultPlan = { all: {}, flows: new Map(), header: true };

/** What happens to one call: wait `latencyMs`, then answer with `error` instead of the flow when set. */
export interface FaultDecision {
  readonly latencyMs: number;
  readonly error: HttpError | undefined;
}

export interface FaultInjector {
  decide(flowId: string, header: string | readonly string[] | undefined): FaultDecision;
}

const NO_FAULT: FaultDecision = { latencyMs: 0, error: undefined };

/** The longest latency accepted: a typo should not hang a call for hours. */
const MAX_LATENCY_MS = 600_000;
/** Seconds a client is asked to wait after an injected 429 or 503. */
const RETRY_AFTER_SECONDS = 1;

/**
 * Checks the plan against the flows and returns the decision function, with one counter per flow.
 * Throws a RangeError when the plan names a flow that does not exist.
 *
 * @example
 * const injector = createFaultInjector(parseFaultFlags({ errorRate: "0.1" }), 1, ["@acme/qa"]);
 * const { latencyMs, error } = injector.decide("@acme/qa", request.headers["x-flowgen-fault"]);
 */
export function createFaultInjector(
  plan: FaultPlan,
  seed: number,
  flowIds: readonly string[],
): FaultInjector {
  for (const id of plan.flows.keys()) {
    if (!flowIds.includes(id))
      throw new RangeError(
        `--fault names ${id}, which is not a flow here; the flows are: ${flowIds.join(", ")}`,
      );
  }
  const streams = new Map<string, () => number>();
  // Each flow's settings, merged once; a flow with none planned skips the arithmetic (not the draws).
  const planned = new Map(
    flowIds.map((id) => [id, { ...plan.all, ...definedFields(plan.flows.get(id) ?? {}) }]),
  );
  return {
    decide(flowId, header) {
      const asked =
        plan.header && header !== undefined
          ? parseFaultHeader(typeof header === "string" ? header : header.join(","))
          : undefined;
      if (asked !== undefined && !asked.ok)
        return { latencyMs: 0, error: new HttpError(400, asked.message) };
      let next = streams.get(flowId);
      if (next === undefined) streams.set(flowId, (next = mulberry32(flowSeed(seed, flowId))));
      if (asked !== undefined)
        return decideCall(
          asked.faults,
          [next(), next(), next()],
          () => "the X-Flowgen-Fault header",
        );
      const settings = planned.get(flowId) ?? plan.all;
      if (settings.latency === undefined && !settings.errorRate && !settings.rateLimitRate) {
        next();
        next();
        next();
        return NO_FAULT;
      }
      const draws = [next(), next(), next()] as const;
      const own = plan.flows.get(flowId) ?? {};
      const origin = (field: "rateLimitRate" | "errorRate", globalFlag: string, key: string) =>
        own[field] === undefined
          ? `flowgen serve ${globalFlag} ${String(settings[field])}`
          : `flowgen serve --fault ${flowId}:${key}=${String(own[field])}`;
      return decideCall(settings, draws, (kind) =>
        kind === 429
          ? origin("rateLimitRate", "--rate-limit-rate", "429")
          : origin("errorRate", "--error-rate", "error"),
      );
    },
  };
}

function decideCall(
  settings: FaultSettings,
  [forLatency, for429, forError]: readonly [number, number, number],
  origin: (kind: 429 | "error") => string,
): FaultDecision {
  const { latency } = settings;
  const latencyMs =
    latency === undefined
      ? 0
      : latency.min + Math.floor(forLatency * (latency.max - latency.min + 1));
  const retryAfter = { "retry-after": String(RETRY_AFTER_SECONDS) };
  if (for429 < (settings.rateLimitRate ?? 0)) {
    const message = `Too many requests (injected by ${origin(429)}); retry after ${RETRY_AFTER_SECONDS} s.`;
    return { latencyMs, error: new HttpError(429, message, { headers: retryAfter }) };
  }
  if (forError < (settings.errorRate ?? 0)) {
    const error =
      settings.errorStatus === 500
        ? new HttpError(500, `Internal error (injected by ${origin("error")}).`)
        : new HttpError(
            503,
            `The service is unavailable (injected by ${origin("error")}); retry after ${RETRY_AFTER_SECONDS} s.`,
            { headers: retryAfter },
          );
    return { latencyMs, error };
  }
  return { latencyMs, error: undefined };
}

/** The raw values of the fault flags of `flowgen serve`, as typed. */
export interface FaultFlags {
  readonly latency?: string | undefined;
  readonly errorRate?: string | undefined;
  readonly errorStatus?: string | undefined;
  readonly rateLimitRate?: string | undefined;
  /** Each `--fault`: `@org/flow:latency=200,error=0.5,status=500,429=0.1`. */
  readonly fault?: readonly string[] | undefined;
  /** `--dev-faults` (default true). */
  readonly devFaults?: boolean | undefined;
}

/**
 * The fault plan from the flags of `flowgen serve`. Throws a RangeError that names the flag and
 * shows the expected syntax when a value is wrong.
 *
 * @example
 * parseFaultFlags({ latency: "100-300", errorRate: "0.1", fault: ["@acme/qa:error=0.5,status=500"] });
 */
export function parseFaultFlags(flags: FaultFlags): FaultPlan {
  const all: FaultSettings = {
    latency:
      flags.latency === undefined
        ? undefined
        : parseLatency(flags.latency, `--latency ${flags.latency}`),
    errorRate:
      flags.errorRate === undefined
        ? undefined
        : parseRate(flags.errorRate, `--error-rate ${flags.errorRate}`),
    errorStatus:
      flags.errorStatus === undefined
        ? undefined
        : parseErrorStatus(flags.errorStatus, `--error-status ${flags.errorStatus}`),
    rateLimitRate:
      flags.rateLimitRate === undefined
        ? undefined
        : parseRate(flags.rateLimitRate, `--rate-limit-rate ${flags.rateLimitRate}`),
  };
  const flows = new Map<string, FaultSettings>();
  for (const text of flags.fault ?? []) {
    const where = `--fault ${JSON.stringify(text)}`;
    const match = /^\s*(@[^/:\s]+\/[^:\s]+)\s*:(.*)$/.exec(text);
    if (!match)
      throw new RangeError(
        `${where}: write @org/flow:setting=value,…, e.g. --fault "@acme/qa:latency=200,error=0.5,status=500,429=0.1"`,
      );
    const [, id = "", rest = ""] = match;
    flows.set(id, { ...flows.get(id), ...definedFields(parseFlowSettings(rest, where)) });
  }
  return { all: definedFields(all), flows, header: flags.devFaults ?? true };
}

function parseFlowSettings(text: string, where: string): FaultSettings {
  const settings: { -readonly [K in keyof FaultSettings]: FaultSettings[K] } = {};
  for (const item of splitList(text)) {
    const [key, value] = splitSetting(item);
    if (value === undefined || value === "")
      throw new RangeError(
        `${where}: "${item}" needs a value, e.g. ${key || "error"}=…; the settings are latency, error, status and 429`,
      );
    if (key === "latency") settings.latency = parseLatency(value, `${where}: latency`);
    else if (key === "error") settings.errorRate = parseRate(value, `${where}: error`);
    else if (key === "status") settings.errorStatus = parseErrorStatus(value, `${where}: status`);
    else if (key === "429") settings.rateLimitRate = parseRate(value, `${where}: 429`);
    else
      throw new RangeError(
        `${where}: unknown setting "${key}"; the settings are latency=MS or MS-MS, error=RATE, status=500|503 and 429=RATE`,
      );
  }
  if (Object.keys(settings).length === 0)
    throw new RangeError(`${where}: name at least one setting, e.g. @acme/qa:error=0.5`);
  return settings;
}

/**
 * The faults of one call from an X-Flowgen-Fault header: `latency=200, error=503, 429`. Each fault
 * named is certain for the call (rates of 1); `none` (or nothing) asks for no fault at all.
 */
export function parseFaultHeader(
  value: string,
):
  | { readonly ok: true; readonly faults: FaultSettings }
  | { readonly ok: false; readonly message: string } {
  const faults: { -readonly [K in keyof FaultSettings]: FaultSettings[K] } = {};
  const syntax =
    "X-Flowgen-Fault takes a comma-separated list of latency=MS (or MS-MS), error (503), error=500, error=503, 429, or none";
  const items = splitList(value);
  const keys = items.map((item) => splitSetting(item)[0]);
  // One word for each fault: a header (or two) that names one twice, or `none` beside another, asks for two things.
  const seen = new Set<string>();
  const twice = keys.find((key) => seen.has(key) || !seen.add(key));
  if (twice !== undefined || (seen.has("none") && keys.length > 1))
    return {
      ok: false,
      message: `${syntax}, each at most once, and none alone; ${twice === undefined ? '"none" comes with other faults' : `"${twice}" comes twice`}.`,
    };
  try {
    for (const item of items) {
      const [key, setting] = splitSetting(item);
      if (key === "latency" && setting !== undefined)
        faults.latency = parseLatency(setting, "X-Flowgen-Fault: latency");
      else if (key === "error") {
        faults.errorRate = 1;
        faults.errorStatus =
          setting === undefined ? 503 : parseErrorStatus(setting, "X-Flowgen-Fault: error");
      } else if (key === "429" && setting === undefined) faults.rateLimitRate = 1;
      else if (key !== "none" || setting !== undefined)
        return { ok: false, message: `${syntax}; "${item}" is not one of them.` };
    }
  } catch (error) {
    if (error instanceof RangeError) return { ok: false, message: `${error.message}. ${syntax}.` };
    throw error;
  }
  return { ok: true, faults };
}

function parseLatency(text: string, where: string): LatencyRange {
  const match = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(text);
  const min = Number(match?.[1]);
  const max = match?.[2] === undefined ? min : Number(match[2]);
  if (!match || !(min <= max) || max > MAX_LATENCY_MS) {
    throw new RangeError(
      `${where}: give whole milliseconds up to ${MAX_LATENCY_MS}, or a range low-high, e.g. 200 or 100-300 (got "${text}")`,
    );
  }
  return { min, max };
}

function parseRate(text: string, where: string): number {
  const rate = /^\s*(\d+(\.\d*)?|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
  if (!(rate >= 0 && rate <= 1))
    throw new RangeError(
      `${where}: give a share of calls from 0 to 1, e.g. 0.1 for one call in ten (got "${text}")`,
    );
  return rate;
}

function parseErrorStatus(text: string, where: string): InjectedErrorStatus {
  const status = text.trim();
  if (status === "500" || status === "503") return Number(status) as InjectedErrorStatus;
  throw new RangeError(`${where}: the injected error status is 500 or 503 (got "${text}")`);
}

function splitList(text: string): string[] {
  return text
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** `key=value` → [key, value]; `key` alone → [key, undefined]. */
function splitSetting(item: string): [string, string | undefined] {
  const at = item.indexOf("=");
  return at < 0 ? [item, undefined] : [item.slice(0, at).trim(), item.slice(at + 1).trim()];
}

/** Drops fields set to undefined, so spreading the result over defaults keeps the defaults. */
function definedFields(settings: FaultSettings): FaultSettings {
  return Object.fromEntries(Object.entries(settings).filter(([, value]) => value !== undefined));
}

function flowSeed(seed: number, flowId: string): number {
  return createHash("sha256").update(`${seed}\0${flowId}`).digest().readUInt32BE(0);
}

/** mulberry32 (Tommy Ettinger, public domain): 32-bit state, a counter stepped by 0x6d2b79f5 and mixed; values in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed | 0;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
