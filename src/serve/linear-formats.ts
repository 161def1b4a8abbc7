import type { Format } from "ajv";
import { fullFormats } from "ajv-formats/dist/formats.js";
import { RE2JS } from "re2js";
import { createUrlTest } from "./linear-url.js";
import { JS_SPACE, compileTest, type StringTest } from "./re2-test.js";

/**
 * ajv-formats' full `format`s for `flowgen serve`, every regular expression run by RE2 (re2js), so
 * a request's strings are checked in time linear in their length, with the verdicts ajv-formats
 * gives: the same sources and flags where RE2 reads them alike, an equivalent check where a
 * source uses what RE2 lacks (look-arounds) or reads otherwise (case folding, `\s`, line ends).
 * `compare`s are left out: they serve `formatMaximum` and the like, which flowgen does not enable.
 * The names are ajv-formats' own, no more and no less (test/serve-formats.test.ts says so).
 *
 * The checks hold no state, so one set serves every start and reload of a process: compiling
 * their expressions is most of what a small project's request checks cost.
 *
 * @example
 * const ajv = createAjv({ formats: linearFormats() });
 */
export function linearFormats(): Readonly<Record<string, Format>> {
  formats ??= Object.freeze(createLinearFormats());
  return formats;
}

let formats: Readonly<Record<string, Format>> | undefined;

/** The formats `linearFormats` shares, compiled anew. */
export function createLinearFormats(): Record<string, Format> {
  const date = dateTest();
  const time = timeTest(true);
  const isoTime = timeTest(false);
  // `fullFormats.uri` tests NOT_URI_FRAGMENT (`/\/|:/`), then URI.
  const uri = compileTest(URI_SOURCE, "i");
  const byteLine = compileTest(BYTE_LINE_SOURCE, "m");
  const zAnchor = compileTest("[^\\\\]\\\\Z", "");
  return {
    date: { validate: date },
    time: { validate: time },
    "date-time": { validate: dateTimeTest(date, time) },
    "iso-time": { validate: isoTime },
    "iso-date-time": { validate: dateTimeTest(date, isoTime) },
    duration: { validate: durationTest() },
    uri: {
      validate: (value: string) => (value.includes("/") || value.includes(":")) && uri(value),
    },
    "uri-reference": { validate: ajvFormatsTest("uri-reference") },
    "uri-template": { validate: ajvFormatsTest("uri-template") },
    url: { validate: createUrlTest() },
    email: { validate: ajvFormatsTest("email") },
    hostname: { validate: hostnameTest() },
    ipv4: { validate: ajvFormatsTest("ipv4") },
    ipv6: { validate: ajvFormatsTest("ipv6") },
    // Compiling the request's string is what the format asks; V8 parses it in one pass and never
    // runs it. ajv-formats first refuses a `\Z` (an anchor in other engines, in ECMAScript a Z).
    regex: { validate: (value: string) => !zAnchor(value) && compilesAsRegExp(value) },
    uuid: { validate: ajvFormatsTest("uuid") },
    "json-pointer": { validate: ajvFormatsTest("json-pointer") },
    "json-pointer-uri-fragment": { validate: ajvFormatsTest("json-pointer-uri-fragment") },
    "relative-json-pointer": { validate: ajvFormatsTest("relative-json-pointer") },
    // BYTE is /…/gm: ECMAScript ends a line at \r, U+2028 and U+2029 too, RE2 only at \n.
    byte: {
      validate: (value: string) =>
        byteLine(
          value.replaceAll("\r", "\n").replaceAll("\u2028", "\n").replaceAll("\u2029", "\n"),
        ),
    },
    int32: fullFormats.int32,
    int64: fullFormats.int64,
    float: fullFormats.float,
    double: fullFormats.double,
    password: true,
    binary: true,
  };
}

/** An ajv-formats format that is a regular expression, run by RE2. */
function ajvFormatsTest(name: keyof typeof fullFormats): StringTest {
  const format = fullFormats[name];
  if (!(format instanceof RegExp)) throw new Error(`ajv-formats' ${name} is no longer a RegExp`);
  return compileTest(format.source, format.flags);
}

/** ajv-formats' `date`: DATE, then the month and the day in it (leap years by RFC 3339 appendix C). */
function dateTest(): StringTest {
  const parts = RE2JS.compile("^(\\d\\d\\d\\d)-(\\d\\d)-(\\d\\d)$");
  return (value) => {
    const match = parts.exec(value) as (string | undefined)[] | null;
    if (match === null) return false;
    const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
    const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month] ?? 0);
    return month >= 1 && month <= 12 && day >= 1 && day <= days;
  };
}

const DAYS_IN_MONTH = [0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** ajv-formats' `time` (`strictTimeZone`) and `iso-time`: TIME, then the ranges and leap seconds. */
function timeTest(strictTimeZone: boolean): StringTest {
  const parts = RE2JS.compile(
    "^(\\d\\d):(\\d\\d):(\\d\\d(?:\\.\\d+)?)(z|([+-])(\\d\\d)(?::?(\\d\\d))?)?$",
    RE2JS.CASE_INSENSITIVE,
  );
  return (value) => {
    const match = parts.exec(value) as (string | undefined)[] | null;
    if (match === null) return false;
    const [hour, minute, second] = [Number(match[1]), Number(match[2]), Number(match[3])];
    const sign = match[5] === "-" ? -1 : 1;
    const [zoneHour, zoneMinute] = [Number(match[6] ?? 0), Number(match[7] ?? 0)];
    if (zoneHour > 23 || zoneMinute > 59 || (strictTimeZone && match[4] === undefined))
      return false;
    if (hour <= 23 && minute <= 59 && second < 60) return true;
    // A leap second is 23:59:60 in UTC.
    const utcMinute = minute - zoneMinute * sign;
    const utcHour = hour - zoneHour * sign - (utcMinute < 0 ? 1 : 0);
    return (
      (utcHour === 23 || utcHour === -1) && (utcMinute === 59 || utcMinute === -1) && second < 61
    );
  };
}

/** ajv-formats splits on `/t|\s/i` and wants two parts: exactly one separator. */
function dateTimeTest(date: StringTest, time: StringTest): StringTest {
  const parts = RE2JS.compile(`^([^tT${JS_SPACE}]*)[tT${JS_SPACE}]([^tT${JS_SPACE}]*)$`);
  return (value) => {
    const match = parts.exec(value) as (string | undefined)[] | null;
    return match !== null && date(match[1] ?? "") && time(match[2] ?? "");
  };
}

/**
 * ajv-formats' duration, `^P(?!$)(…(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?|(\d+W)?)$`, without its
 * look-aheads: `(?!$)` says there is more than the P, `T(?=\d)` that one of H, M, S follows the T.
 */
function durationTest(): StringTest {
  const rest = compileTest(
    "^P(?:(\\d+Y)?(\\d+M)?(\\d+D)?(T(?:\\d+H(\\d+M)?(\\d+S)?|\\d+M(\\d+S)?|\\d+S))?|(\\d+W)?)$",
    "",
  );
  return (value) => value !== "P" && rest(value);
}

/**
 * ajv-formats' hostname without its look-ahead `(?=.{1,253}\.?$)`: at most 253 characters, or 254
 * when the last is a dot (the rest admits no line end for `.` to stop at).
 */
function hostnameTest(): StringTest {
  const labels = compileTest(
    "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\\.[a-z0-9](?:[-0-9a-z]{0,61}[0-9a-z])?)*\\.?$",
    "i",
  );
  return (value) =>
    (value.length <= 253 || (value.length === 254 && value.endsWith("."))) && labels(value);
}

function compilesAsRegExp(value: string): boolean {
  try {
    new RegExp(value);
    return true;
  } catch {
    return false;
  }
}

/** ajv-formats 3.0.1's URI, the regex of `fullFormats.uri`; not exported, so copied (a test compares). */
export const URI_SOURCE =
  "^(?:[a-z][a-z0-9+\\-.]*:)(?:\\/?\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:]|%[0-9a-f]{2})*@)?(?:\\[(?:(?:(?:(?:[0-9a-f]{1,4}:){6}|::(?:[0-9a-f]{1,4}:){5}|(?:[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){4}|(?:(?:[0-9a-f]{1,4}:){0,1}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){3}|(?:(?:[0-9a-f]{1,4}:){0,2}[0-9a-f]{1,4})?::(?:[0-9a-f]{1,4}:){2}|(?:(?:[0-9a-f]{1,4}:){0,3}[0-9a-f]{1,4})?::[0-9a-f]{1,4}:|(?:(?:[0-9a-f]{1,4}:){0,4}[0-9a-f]{1,4})?::)(?:[0-9a-f]{1,4}:[0-9a-f]{1,4}|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?))|(?:(?:[0-9a-f]{1,4}:){0,5}[0-9a-f]{1,4})?::[0-9a-f]{1,4}|(?:(?:[0-9a-f]{1,4}:){0,6}[0-9a-f]{1,4})?::)|[Vv][0-9a-f]+\\.[a-z0-9\\-._~!$&'()*+,;=:]+)\\]|(?:(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)\\.){3}(?:25[0-5]|2[0-4]\\d|[01]?\\d\\d?)|(?:[a-z0-9\\-._~!$&'()*+,;=]|%[0-9a-f]{2})*)(?::\\d*)?(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*|\\/(?:(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)?|(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})+(?:\\/(?:[a-z0-9\\-._~!$&'()*+,;=:@]|%[0-9a-f]{2})*)*)(?:\\?(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?(?:#(?:[a-z0-9\\-._~!$&'()*+,;=:@/?]|%[0-9a-f]{2})*)?$";

/** ajv-formats 3.0.1's BYTE, one line of `fullFormats.byte`; not exported, so copied (a test compares). */
export const BYTE_LINE_SOURCE = "^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$";
