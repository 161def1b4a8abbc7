import { describe, expect, it } from "vitest";
import { createKeyFinder } from "../src/key-finder.js";
import { keyRedactor } from "../templates/runtime/redact.js";

// serve and verify find keys with src/key-finder.ts; the generated clients with their own copy
// (templates/runtime/redact.ts, which must stand alone in a user's repository). One table for both.
const KEY = 'sl/ash~Key+0123"xyz';

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
const percentEach = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");

const FORMS: [string, string][] = [
  ["as written", KEY],
  ["in capitals", KEY.toUpperCase()],
  ["in a JSON string", JSON.stringify({ echo: KEY })],
  [
    "in a JSON pointer in a JSON string",
    JSON.stringify({ pointer: `/${KEY.replaceAll("~", "~0").replaceAll("/", "~1")}` }),
  ],
  ["percent-encoded four times", [1, 2, 3, 4].reduce((text) => encodeURIComponent(text), KEY)],
  [
    "as hex and decimal character references",
    [...KEY]
      .map((c, i) => (i % 2 ? `&#x${c.charCodeAt(0).toString(16)};` : `&#${c.charCodeAt(0)};`))
      .join(""),
  ],
  ["percent-encoded", encodeURIComponent(KEY)],
  ["percent-encoded three times", encodeURIComponent(encodeURIComponent(encodeURIComponent(KEY)))],
  ["each byte percent-encoded, then each byte of that", percentEach(percentEach(KEY))],
  ["in a JSON pointer", `/${KEY.replaceAll("~", "~0").replaceAll("/", "~1")}`],
  [
    "as JSON unicode escapes",
    [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join(""),
  ],
  ["as character references", [...KEY].map((c) => `&#${c.charCodeAt(0)};`).join("")],
  ["with its quote as &quot;", KEY.replace('"', "&quot;")],
  ["with a space for its +", KEY.replace("+", " ")],
  ["in base64", base64(KEY)],
  ["in base64 after a user name", base64(`user:${KEY}`)],
  [
    "in URL-safe base64 after two bytes",
    base64(`ab${KEY}`).replaceAll("+", "-").replaceAll("/", "_"),
  ],
  ["in full-width letters", KEY.replace("Key", "Ｋｅｙ")],
  ["after text that starts an escape", `%4${KEY}`],
];

describe("the key finder and the client's redactor agree", () => {
  const finder = createKeyFinder([KEY]);
  const redact = keyRedactor(KEY);
  it.each(FORMS)("both find the key %s", (_name, form) => {
    const text = `before ${form} after`;
    expect(finder.mentions(text)).toBe(true);
    for (const masked of [finder.mask(text, "[redacted]"), redact(text)]) {
      expect(masked).toMatch(/^before .*\[redacted\].* after$/);
      expect(finder.mentions(masked)).toBe(false);
    }
  });
});

describe("a key that ends in a backslash, escaped where a quote follows it", () => {
  const key = 'Tok/3n~"x\\';
  const pointer = `/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
  it.each([
    ["in a JSON string", JSON.stringify({ result: [key] })],
    ["as a property name in JSON", JSON.stringify({ [key]: 1 })],
    ["in a JSON pointer in JSON", JSON.stringify({ pointer })],
  ])("is found by both %s", (_name, text) => {
    const finder = createKeyFinder([key]);
    expect(finder.mentions(text)).toBe(true);
    for (const masked of [finder.mask(text, "[redacted]"), keyRedactor(key)(text)])
      expect(masked).toContain("[redacted]");
  });
});
