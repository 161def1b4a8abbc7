import { randomInt } from "node:crypto";
import type { Issue } from "../issues.js";

export const VERIFY_DEFAULTS = {
  generate: 0,
  concurrency: 4,
  maxRequests: 500,
  timeout: 30_000,
  /** Retries of a 503, or of a 429 that names no wait, per request. */
  maxRetries: 3,
  /** The longest Retry-After (or rate-limit reset) verify waits out. */
  maxWaitMs: 60_000,
  /** The longest one request may be held off in all, by waits it was asked for included. */
  maxTotalWaitMs: 300_000,
} as const;

/** Numbers a run needs, checked, defaults filled in. */
export interface VerifyNumbers {
  readonly generate: number;
  readonly seed: number;
  readonly negative: boolean;
  readonly concurrency: number;
  readonly maxRequests: number;
  readonly timeoutMs: number;
}

const RULES = {
  generate: { flag: "--generate", min: 0, max: 1000 },
  seed: { flag: "--seed", min: 0, max: 2 ** 32 - 1 },
  concurrency: { flag: "--concurrency", min: 1, max: 64 },
  maxRequests: { flag: "--max-requests", min: 1, max: 1_000_000 },
  timeout: { flag: "--timeout", min: 1, max: 600_000 },
} as const;

/**
 * The run's numbers, each a whole number in its range, or an `invalid-option` issue per bad one.
 *
 * @example
 * checkVerifyNumbers({ generate: 3, seed: 7 }).settings; // { generate: 3, seed: 7, concurrency: 4, … }
 */
export function checkVerifyNumbers(given: {
  readonly generate?: number | undefined;
  readonly seed?: number | undefined;
  readonly negative?: boolean | undefined;
  readonly concurrency?: number | undefined;
  readonly maxRequests?: number | undefined;
  readonly timeout?: number | undefined;
}): { settings: VerifyNumbers | undefined; issues: Issue[] } {
  const issues: Issue[] = [];
  const pick = (key: keyof typeof RULES, fallback: number): number => {
    const value = given[key] ?? fallback;
    const { flag, min, max } = RULES[key];
    if (!Number.isInteger(value) || value < min || value > max)
      issues.push({
        code: "invalid-option",
        file: flag,
        message: `must be a whole number from ${min} to ${max}, not ${String(value)}`,
      });
    return value;
  };
  const settings: VerifyNumbers = {
    generate: pick("generate", VERIFY_DEFAULTS.generate),
    // A fresh seed by default, so runs explore; the report names it, so any run can be replayed.
    seed: pick("seed", randomInt(0, 2 ** 31)),
    negative: given.negative ?? false,
    concurrency: pick("concurrency", VERIFY_DEFAULTS.concurrency),
    maxRequests: pick("maxRequests", VERIFY_DEFAULTS.maxRequests),
    timeoutMs: pick("timeout", VERIFY_DEFAULTS.timeout),
  };
  return { settings: issues.length === 0 ? settings : undefined, issues };
}

/**
 * The base URL without trailing slashes, and the key, checked: the base URL must be absolute
 * http(s) without credentials, query or fragment (the flow path is appended to it), and
 * `http://` only to loopback, since the key would cross the network in clear text. The key must
 * be sendable as a header (printable ASCII, no spaces). A dry run needs no key. Messages never
 * quote the key.
 *
 * @example
 * checkVerifyTarget({ baseUrl: "https://api.example.com/", apiKey: "sk_1", dryRun: false }).baseUrl; // "https://api.example.com"
 */
export function checkVerifyTarget(given: {
  readonly baseUrl: string | undefined;
  /** Where the base URL was given, as a problem names it: "--base-url" (default), "FLOW_BASE_URL", the config file. */
  readonly baseUrlFrom?: string;
  readonly apiKey: string | undefined;
  readonly dryRun: boolean;
}): { baseUrl: string | undefined; apiKey: string | undefined; issues: Issue[] } {
  const issues: Issue[] = [];
  const baseUrl = checkBaseUrl(given.baseUrl, given.baseUrlFrom ?? "--base-url");
  if (typeof baseUrl !== "string") issues.push(baseUrl);
  const { apiKey } = given;
  const sendable = apiKey !== undefined && /^[\x21-\x7e]{1,4096}$/.test(apiKey);
  if (!given.dryRun && !sendable)
    issues.push({
      code: "no-api-key",
      file: "FLOW_API_KEY",
      message:
        apiKey === undefined || apiKey === ""
          ? "not set; flowgen verify sends it as Authorization: Bearer <key>: set FLOW_API_KEY to the key, as issued (--dry-run needs none)"
          : "holds characters a header cannot carry (spaces, line breaks or non-ASCII); set it to the key exactly as issued",
    });
  return {
    baseUrl: typeof baseUrl === "string" ? baseUrl : undefined,
    apiKey: sendable ? apiKey : undefined,
    issues,
  };
}

function checkBaseUrl(value: string | undefined, from: string): string | Issue {
  const refuse = (message: string): Issue => ({ code: "no-base-url", file: from, message });
  if (value === undefined || value === "")
    return refuse(
      'no base URL; pass --base-url https://api.example.com, set FLOW_BASE_URL, or set "baseUrl" in the config',
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return refuse(
      `${JSON.stringify(value)} is not a URL; give one such as https://api.example.com`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return refuse(
      `${url.protocol} is not http: or https:; give one such as https://api.example.com`,
    );
  if (url.username !== "" || url.password !== "" || /[?#]/.test(value))
    return refuse(
      "a base URL with credentials, a query or a fragment is refused: the key goes in the Authorization header, and the flow path is appended to the URL",
    );
  if (url.protocol === "http:" && !/^(localhost|127(\.\d+){3}|\[::1\])$/.test(url.hostname))
    return refuse(
      `http:// sends the key in clear text; use https://${url.host}, or http:// only to localhost`,
    );
  return `${url.origin}${url.pathname}`.replace(/\/+$/, "");
}
