import { describe, expect, it } from "vitest";
import { createKeyFinder } from "../src/key-finder.js";

const KEY = 'sl/ash~Key+0123"xyz';
const finder = createKeyFinder([KEY]);

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");
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
