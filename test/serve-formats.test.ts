import { readFileSync } from "node:fs";
import type { Format } from "ajv";
import { formatNames, fullFormats } from "ajv-formats/dist/formats.js";
import { describe, expect, it } from "vitest";
import { BYTE_LINE_SOURCE, URI_SOURCE, createLinearFormats } from "../src/serve/linear-formats.js";
import { serveFlow } from "./helpers/serve.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

/** How a format definition answers for a string, whatever its shape. */
function run(format: Format | undefined, value: string): boolean {
  if (format === undefined || typeof format === "string") throw new Error("no such format");
  if (format === true) return true;
  if (format instanceof RegExp) return format.test(value);
  if (typeof format === "function") return format(value);
  const { validate } = format;
  if (typeof validate === "string") throw new Error("a format given as a source string");
  return validate instanceof RegExp ? validate.test(value) : (validate(value as never) as boolean);
}

// Sample values per format, valid and not, with the edges each check has: case, Unicode letters
// that fold to ASCII (ſ, K), ECMAScript-only spaces and line ends, lengths, look-around cases.
const ODD = [
  "\u017f",
  "\u212a",
  "\u0080",
  "\u3000",
  "\u00a0",
  "\v",
  "\r",
  "\n",
  "\u2028",
  "\ud800",
];
const CORPUS: Readonly<Record<string, readonly string[]>> = {
  date: [
    "2020-02-29",
    "2019-02-29",
    "2000-02-29",
    "1900-02-29",
    "2020-13-01",
    "2020-00-10",
    "2020-01-32",
    "2020-1-1",
    "",
    "2020-01-01\n",
  ],
  time: [
    "12:34:56Z",
    "12:34:56z",
    "12:34:56.789+01:00",
    "23:59:60Z",
    "22:59:60-01:00",
    "23:59:60+01:00",
    "12:34:56",
    "24:00:00Z",
    "12:60:00Z",
    "12:00:00+24:00",
    "12:00:00+0130",
    "12:00:00+01",
    "12:00:00\u017f",
  ],
  "iso-time": ["12:34:56", "12:34:56Z", "23:59:60", "25:00:00", "12:34"],
  "date-time": [
    "2020-01-01T12:00:00Z",
    "2020-01-01t12:00:00z",
    "2020-01-01 12:00:00Z",
    "2020-01-01\u300012:00:00Z",
    "2020-01-01\u00a012:00:00Z",
    "2020-01-01\n12:00:00Z",
    "2020-01-01TT12:00:00Z",
    "2020-01-01T12:00:00",
    "2020-02-30T00:00:00Z",
    "2020-01-01",
    "T",
    "",
  ],
  "iso-date-time": ["2020-01-01T12:00:00", "2020-01-01 12:00:00+01:00", "2020-01-01x12:00:00"],
  duration: [
    "P",
    "PT",
    "P1Y",
    "P1Y2M3DT4H5M6S",
    "PT1H",
    "PT1M",
    "PT1S",
    "PT1H2S",
    "P1W",
    "P1W1D",
    "PT1",
    "P1D T1H",
    "P1YT",
    "p1y",
    "P0D",
  ],
  uri: [
    "http://example.com",
    "HTTP://EXAMPLE.COM/a?b#c",
    "urn:isbn:0451450523",
    "mailto:a@b.c",
    "a:b",
    "http://[::1]:8080/",
    "http://[v1.x]/",
    "http://user:pw@host:80/p%20q",
    "//example.com",
    "/path",
    "example",
    "http://exa mple.com",
    "http://ex\u017fample.com",
    "http://e\u212a.com",
    "1http://x",
    "http://%zz",
    "a:" + "/".repeat(20),
  ],
  "uri-reference": [
    "",
    "#",
    "#frag",
    "/a/b",
    "a/b",
    "//host",
    "http://x.y/z?q#f",
    "http://[::1]/",
    "%41",
    "%4",
    "\\",
    "a b",
    "a:\u0000",
    "\u017f",
    "\u212a",
    'http://h/"q"',
    "http://\u017f.com",
  ],
  "uri-template": [
    "http://example.com/{id}",
    "{+path}/x",
    "{a,b:3,c*}",
    "{a",
    "{a b}",
    "{\u017f}",
    "{k}",
    "\u017f{k}",
    "\u212a",
    "%2",
    "%20",
    "{%41}",
    "{a:0}",
    "{a:10000}",
    "a b",
    "<",
    "",
  ],
  url: [
    "http://example.com",
    "https://example.com:8080/a b",
    "https://example.com:8080/a?b#c",
    "ftp://ex-ample.co.uk/",
    "HTTP://EXAMPLE.COM",
    "http\u017f://example.com",
    "http://localhost",
    "http://10.0.0.1",
    "http://10.0.0.1.example.com",
    "http://100.0.0.1",
    "http://127.0.0.1:80",
    "http://172.16.0.1",
    "http://172.32.0.1",
    "http://192.168.1.1",
    "http://169.254.1.1",
    "http://1.2.3.4",
    "http://1.2.3.0",
    "http://224.0.0.1",
    "http://u:p@example.com",
    "http://@example.com",
    "http://@a@example.com",
    "http://a@10.0.0.1",
    "http://a@10.0.0.1@example.com",
    "http://a@b/c@example.com/d",
    "http://a b@example.com",
    "http://a@b.com/ x",
    "http://a@b.com/x\u3000",
    "http://ex\u3000ample.com",
    "http://ex\u00a0ample.com",
    "http://\u00e9x.com",
    "http://\u{1f600}.com",
    "http://ex.\u00e9\u00e9",
    "http://ex.c",
    "http://ex.com:1",
    "http://ex.com:123456",
    "http://ex.com?x",
    "http://-ex.com",
    "http://ex-.com",
    "http://ex.com/\ud800",
    "http:///ex.com",
    "",
  ],
  email: [
    "a@b.co",
    "A.B+c@EXAMPLE.com",
    "a..b@c.d",
    ".a@b.c",
    "a@b",
    "a@-b.c",
    "a@b-.c",
    "\u017f@b.c",
    "a@\u212a.c",
    "a@b.c\n",
    "a b@c.d",
  ],
  hostname: [
    "example.com",
    "EXAMPLE.com.",
    "a",
    "-a",
    "a-",
    "a..b",
    "a.-b",
    "\u017f",
    "\u212a.com",
    `${"a".repeat(63)}.com`,
    `${"a".repeat(64)}.com`,
    `${"a.".repeat(126)}a`,
    `${"a.".repeat(126)}ab`,
    `${"a.".repeat(127)}`,
    `${"a.".repeat(126)}a.`,
    `${"a.".repeat(126)}ab.`,
    "",
    "a\n",
    ".",
  ],
  ipv4: ["1.2.3.4", "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4\n"],
  ipv6: [
    "::",
    "::1",
    "1::",
    "1:2:3:4:5:6:7:8",
    "1:2:3:4:5:6:7::",
    "1::8",
    "::ffff:1.2.3.4",
    "ABCD::EF",
    "1:2:3:4:5:6:7:8:9",
    ":::",
    "1::2::3",
    "g::1",
    "::\u212a",
  ],
  regex: ["a+", "(", "[a-z]", "\\Z", "a\\Z", "\\\\Z", "\n\\Z", "\\p{L}", "(?<n>a)\\k<n>", ""],
  uuid: [
    "123e4567-e89b-12d3-a456-426614174000",
    "urn:uuid:123E4567-E89B-12D3-A456-426614174000",
    "URN:UUID:123e4567-e89b-12d3-a456-426614174000",
    "123e4567e89b12d3a456426614174000",
    "123e4567-e89b-12d3-a456-42661417400g",
  ],
  "json-pointer": ["", "/", "/a~0b~1c", "/a~2", "a", "/\u017f", "/\ud800"],
  "json-pointer-uri-fragment": ["#", "#/a/%20", "#/a b", "#/\u017f", "#/\u212a", "/a", "#/~2"],
  "relative-json-pointer": ["0", "1#", "10/a/b", "01", "-1", "0/a~2", "1/\u017f"],
  byte: [
    "",
    "QUJD",
    "QUI=",
    "QQ==",
    "QUJ",
    "Q===",
    "!!!!",
    "!!!\n",
    "!!!\r",
    "!!!\u2028",
    "!!!\u2029",
    "\nQUJD",
    "QUJD\n!!",
    "!!\nQUJD",
    "QU JD",
  ],
  int32: [],
  int64: [],
  float: [],
  double: [],
  password: ["anything"],
  binary: ["anything"],
};

describe("serve's format checks", () => {
  const linear = createLinearFormats();

  it("are ajv-formats' formats, no more and no less, and none is a JavaScript RegExp", () => {
    // A new ajv-formats format must be given an RE2 check here before serve can use it.
    expect(Object.keys(linear).sort()).toEqual([...formatNames].sort());
    expect(Object.keys(CORPUS).sort()).toEqual([...formatNames].sort());
    for (const format of Object.values(linear)) {
      expect(format).not.toBeInstanceOf(RegExp);
      if (typeof format === "object" && !(format instanceof RegExp))
        expect(format.validate).not.toBeInstanceOf(RegExp);
    }
  });

  it("copy the regular expressions ajv-formats does not export, as they are", () => {
    const dist = readFileSync(`${REPO_ROOT}/node_modules/ajv-formats/dist/formats.js`, "utf8");
    expect(dist).toContain(`const URI = /${URI_SOURCE}/i;`);
    expect(dist).toContain(`const BYTE = /${BYTE_LINE_SOURCE}/gm;`);
    expect(dist).toContain("const NOT_URI_FRAGMENT = /\\/|:/;");
    expect(dist).toContain("const Z_ANCHOR = /[^\\\\]\\\\Z/;");
  });

  const cases = Object.entries(CORPUS).flatMap(([name, values]) =>
    [...values, ...values.flatMap((value) => variants(value))].map(
      (value): [string, string, string] => [name, JSON.stringify(value).slice(0, 60), value],
    ),
  );
  it.each(cases)("%s %s: as ajv-formats", (name, _, value) => {
    expect(run(linear[name], value)).toBe(
      run(fullFormats[name as keyof typeof fullFormats], value),
    );
  });

  it("meet both verdicts in the corpus for every format that can refuse", () => {
    for (const [name, values] of Object.entries(CORPUS)) {
      if (values.length === 0 || name === "password" || name === "binary") continue;
      const verdicts = new Set(values.map((value) => run(linear[name], value)));
      expect([name, [...verdicts].sort()]).toEqual([name, [false, true]]);
    }
  });

  it.each([
    ["int32", 2 ** 31 - 1, true],
    ["int32", 2 ** 31, false],
    ["int64", 1.5, false],
    ["float", 1.5, true],
  ] as const)("%s %s is %s, as ajv-formats says", (name, value, want) => {
    const format = linear[name] as { validate: (value: number) => boolean };
    expect(format.validate(value)).toBe(want);
    expect((fullFormats[name] as { validate: (value: number) => boolean }).validate(value)).toBe(
      want,
    );
  });
});

/** Each odd character put at the start, the middle and the end of `value`, and the value cut short. */
function variants(value: string): string[] {
  const middle = Math.floor(value.length / 2);
  return [
    ...ODD.flatMap((odd) => [
      odd + value,
      value.slice(0, middle) + odd + value.slice(middle),
      value + odd,
    ]),
    value.slice(0, -1),
    value.toUpperCase(),
  ];
}

const KEY = "k_formats_0123456789abcdef";

describe("format checks in flowgen serve", () => {
  // A backtracking engine is what fails here, by the test's timeout.
  it("answer strings crafted against backtracking at once, with a 400", async () => {
    const formats = [
      "uri-reference",
      "uri",
      "url",
      "hostname",
      "ipv6",
      "email",
      "duration",
      "uri-template",
      "date-time",
      "byte",
    ];
    const { post } = await serveFlow(
      "formats",
      {
        type: "object",
        properties: Object.fromEntries(
          formats.map((format) => [format, { type: "string", format }]),
        ),
      },
      KEY,
    );
    const hostile: Record<string, string> = {
      "uri-reference": `a:${"/".repeat(50_000)}\u0000`,
      uri: `a:${"/".repeat(50_000)}\u0000`,
      // ajv-formats' url takes seconds on this one (\S+ and :\S* split the colons every way).
      url: `http://${":".repeat(200_000)} `,
      hostname: `${"a".repeat(50_000)}!`,
      ipv6: `${"1:".repeat(25_000)}!`,
      email: `${"a".repeat(50_000)}@${"a.".repeat(25_000)}!`,
      duration: `P${"1".repeat(50_000)}!`,
      "uri-template": `${"%".repeat(50_000)}{`,
      "date-time": `${"t".repeat(50_000)}`,
      byte: `${"QUJD".repeat(12_500)}!`,
    };
    const answer = await post(hostile);
    expect(answer.status).toBe(400);
    expect(
      (answer.body as { details: { pointer: string }[] }).details
        .map((detail) => detail.pointer)
        .sort(),
    ).toEqual(formats.map((format) => `/${format}`).sort());
    expect(
      (await post({ url: "https://example.com/a", duration: "PT1H", hostname: "example.com" }))
        .status,
    ).toBe(200);
  }, 5_000);
});
