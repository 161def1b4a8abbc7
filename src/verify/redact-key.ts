import { isPlainObject } from "../json-pointer.js";

const MASK = "[redacted]";

/** Replaces the API key in text, in any letter case and spelling it may have reached there in. */
export type Redactor = (text: string) => string;

/**
 * A redactor for `secret`. A platform may echo the key back in a body, a header or a redirect
 * target, in its own letter case, percent-encoded (whole or in part, with upper- or lower-case
 * hex digits), or escaped for JSON or XML once it lands in a report. Each character of the key
 * matches any of those spellings of it, so every mix is found. The pattern is a fixed sequence
 * of alternatives, one per character, without quantifiers: matching costs at most the key's
 * length per position of the text, whatever the text holds.
 *
 * @example
 * const redact = createRedactor("sk_Live/1");
 * redact("echo: SK_LIVE%2f1"); // "echo: [redacted]"
 */
export function createRedactor(secret: string | undefined): Redactor {
  if (secret === undefined || secret === "") return (text) => text;
  const pattern = new RegExp([...secret].map(spellings).join(""), "gi");
  return (text) => text.replace(pattern, MASK);
}

/**
 * A copy of a JSON value with the key replaced in every string, object keys included.
 *
 * @example
 * redactValue({ echo: "Bearer sk_1" }, createRedactor("sk_1")); // { echo: "Bearer [redacted]" }
 */
export function redactValue<T>(value: T, redact: Redactor): T {
  if (typeof value === "string") return redact(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => redactValue(item, redact)) as T;
  if (!isPlainObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, item]) => [redact(key), redactValue(item, redact)]),
  ) as T;
}

/** The ways one character of the key can be written: itself, %XX, and its JSON and XML escapes. */
function spellings(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const forms = [char.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")];
  if (code < 0x80) forms.push(`%${code.toString(16).padStart(2, "0")}`);
  forms.push(
    `\\\\u${code.toString(16).padStart(4, "0")}`,
    `&#${code};`,
    `&#x${code.toString(16)};`,
  );
  const named: Record<string, readonly string[]> = {
    '"': ['\\\\"', "&quot;"],
    "\\": ["\\\\\\\\"],
    "&": ["&amp;"],
    "<": ["&lt;"],
    ">": ["&gt;"],
    "'": ["&apos;"],
    "/": ["\\\\/"],
  };
  forms.push(...(named[char] ?? []));
  return `(?:${forms.join("|")})`;
}
