import { isPlainObject } from "../json-pointer.js";
import { createKeyFinder } from "../key-finder.js";

const MASK = "[redacted]";

/** Replaces the API key in text, in any letter case and spelling it may have reached there in. */
export type Redactor = (text: string) => string;

/**
 * A redactor for `secret`. A platform may echo the key back in a body, a header or a redirect
 * target, in its own letter case, percent-encoded (whole or in part, more than once), escaped for
 * JSON or XML once it lands in a report, in base64, hex or UTF-16: each stretch that spells it in
 * any of those forms (`createKeyFinder`) is replaced. Linear in the text.
 *
 * @example
 * const redact = createRedactor("sk_Live/1");
 * redact("echo: SK_LIVE%2f1"); // "echo: [redacted]"
 */
export function createRedactor(secret: string | undefined): Redactor {
  if (secret === undefined || secret === "") return (text) => text;
  const finder = createKeyFinder([secret]);
  return (text) => finder.mask(text, MASK);
}

/**
 * A copy of a report with the key replaced in every string value. Its property names are
 * flowgen's own (and a spec's): a short key found inside them would break the report's shape.
 *
 * @example
 * redactValue({ echo: "Bearer sk_1" }, createRedactor("sk_1")); // { echo: "Bearer [redacted]" }
 */
export function redactValue<T>(value: T, redact: Redactor): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, redact)) as T;
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [key, redactValue(item, redact)]),
  ) as T;
}
