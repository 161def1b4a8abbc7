import { describe, expect, it } from "vitest";
import { createKeyFinder } from "../src/key-finder.js";

const KEY = 'sl/ash~Key+0123"xyz';
const finder = createKeyFinder([KEY]);

const base64 = (text: string, encoding: BufferEncoding = "utf8") =>
  Buffer.from(text, encoding).toString("base64");
const hex = (text: string) => Buffer.from(text, "latin1").toString("hex");
/** `text` in UTF-16, a byte to a character, as percent-decoding or a latin1 reading shows it. */
const utf16 = (text: string, order: "le" | "be") => {
  const bytes = Buffer.from(text, "utf16le");
  return (order === "le" ? bytes : bytes.swap16()).toString("latin1");
};
const percentEach = (text: string) =>
  [...text].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, "0")}`).join("");
const pointer = (text: string) => text.replaceAll("~", "~0").replaceAll("/", "~1");
const characterReferences = (text: string) =>
  [...text]
    .map((c, i) => (i % 2 === 0 ? `&#${c.charCodeAt(0)};` : `&#x${c.charCodeAt(0).toString(16)};`))
    .join("");

describe("createKeyFinder", () => {
  // The forms a key is found in: test/key-forms-agree.test.ts, for this finder and the client's.

  it.each([
    ["a shorter stretch of it", KEY.slice(0, -1)],
    ["another key", 'sl/ash~Kez+0123"xyz'],
    ["the base64 of other text", base64('sl/ash~Key+0123"xyq')],
    ["a broken escape", "sl/ash~Key+0123%2zxyz"],
  ])("leaves %s alone", (_, text) => {
    expect(finder.mentions(text)).toBe(false);
    expect(finder.mask(text, "[redacted]")).toBe(text);
  });

  it("finds a key as written where the text before it starts an escape that decoding would end in the key", () => {
    for (const [key, text] of [
      ["41deadbeefcafe", "x %41deadbeefcafe y"],
      ["0secretkey12", "a~0secretkey12"],
      ["nsecretkey12", "a\\nsecretkey12"],
      ["secretkey%4", "secretkey%41"],
    ] as const) {
      const finder = createKeyFinder([key]);
      expect(finder.mentions(text), text).toBe(true);
      expect(finder.mask(text, "#"), text).not.toContain(key);
    }
  });

  it.each([
    ["in hex", hex(KEY)],
    ["in hex capitals", hex(KEY).toUpperCase()],
    [
      "in hex, letters of both cases",
      hex(KEY).replace(/[a-f]/g, (d, i: number) => (i % 4 ? d : d.toUpperCase())),
    ],
    ["in hex, percent-encoded", percentEach(hex(KEY))],
    ["in UTF-16LE, read a byte to a character", utf16(KEY, "le")],
    ["in UTF-16BE, read a byte to a character", utf16(KEY, "be")],
    ["in UTF-16LE without its last zero byte", utf16(KEY, "le").slice(0, -1)],
    ["in UTF-16, each byte percent-encoded", percentEach(utf16(KEY, "le"))],
    ["in UTF-16, in a JSON string", JSON.stringify({ echo: utf16(KEY, "be") })],
    ["in UTF-16, with JSON escapes written out", KEY.split("").join("\\u0000")],
    ["in UTF-16, in capitals", utf16(KEY.toUpperCase(), "le")],
    ["in UTF-16LE hex", hex(utf16(KEY, "le"))],
    ["in UTF-16BE hex capitals", hex(utf16(KEY, "be")).toUpperCase()],
    [
      "in UTF-16LE base64, as PowerShell encodes a command",
      base64(`echo ${utf16(KEY, "le")}`, "latin1"),
    ],
  ])("finds the key %s, and masks it", (_, form) => {
    const text = `before ${form} after`;
    expect(finder.mentions(text)).toBe(true);
    const masked = finder.mask(text, "[redacted]");
    expect(masked).toMatch(/^before .*\[redacted\].* after$/);
    expect(finder.mentions(masked)).toBe(false);
  });

  it.each([
    ["the hex of another key", hex('sl/ash~Kez+0123"xyz')],
    ["the hex of a shorter stretch of it", hex(KEY.slice(0, -1))],
    ["its hex a digit out of step", `0${hex(KEY).slice(0, -1)}`],
    ["another key in UTF-16", utf16('sl/ash~Kez+0123"xyz', "le")],
  ])("leaves %s alone", (_, text) => {
    expect(finder.mentions(text)).toBe(false);
  });

  it("masks exactly the stretches that spell a key, each once", () => {
    const finder = createKeyFinder(["sk_live_1", "other-key-2"]);
    expect(finder.mask("a SK_LIVE_1 b sk%5Flive%5F1 c other-key-2d", "#")).toBe("a # b # c #d");
  });

  it("finds nothing without keys", () => {
    expect(createKeyFinder([]).mentions("anything")).toBe(false);
    expect(createKeyFinder([""]).mask("anything", "#")).toBe("anything");
  });

  it("finds any key in text built from random layers of encodings", () => {
    let seed = 7;
    const random = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
    const layers = [
      (text: string) => encodeURIComponent(text),
      (text: string) => percentEach(text),
      (text: string) => JSON.stringify(text).slice(1, -1),
      (text: string) => pointer(text),
      (text: string) => characterReferences(text),
      (text: string) => text.toUpperCase(),
    ];
    for (let round = 0; round < 300; round++) {
      const key = Array.from({ length: 8 + Math.floor(random() * 16) }, () =>
        String.fromCharCode(0x21 + Math.floor(random() * 94)),
      ).join("");
      let text = key;
      for (let depth = Math.floor(random() * 4); depth > 0; depth--)
        text = layers[Math.floor(random() * layers.length)]!(text);
      expect(createKeyFinder([key]).mentions(`x ${text} y`), `${key} as ${text}`).toBe(true);
    }
  });

  it("reads each character once, however deep its escapes nest", () => {
    // 100,000 levels of "%25" around one escape, and 50,000 "&" written as "&#x26;" before one
    // reference: decoded round after round, these texts would be read over and over.
    const finder = createKeyFinder(["A-key-of-mine"]);
    expect(finder.mentions(`%${"25".repeat(100_000)}41-key-of-mine`)).toBe(true);
    expect(finder.mentions(`${"&#x26;".repeat(50_000)}#65;-key-of-mine`)).toBe(true);
    expect(finder.mentions(`${"&#x26;".repeat(50_000)}#66;-key-of-mine`)).toBe(false);
  });
});
