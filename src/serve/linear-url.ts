import { compileTest, type StringTest } from "./re2-test.js";

/**
 * ajv-formats' full `url` check, by RE2 and one pass over the value. The check is dperini's regex
 * (https://gist.github.com/dperini/729294), flags iu:
 *
 *     ^(?:https?|ftp):\/\/(?:\S+(?::\S*)?@)?(?:(?!PRIVATE)IP|DOMAIN)(?::\d{2,5})?(?:\/[^\s]*)?$
 *
 * Its negative look-aheads refuse an IPv4 host in a private range, and RE2 has no look-arounds,
 * so the host is matched on its own and an IP's range is a second test. The host starts right
 * after "://" or after any "@" with only non-spaces before it (the user info reads as `\S+@`),
 * and runs to the next "/" (host and port hold no "/" or "@"): each place a host may start is
 * tried on its own stretch of the value, and the stretches do not overlap, so all is linear.
 *
 * @example
 * const isUrl = createUrlTest();
 * isUrl("https://example.com/a"); // true
 * isUrl("http://10.0.0.1/"); // false: a private address
 */
export function createUrlTest(): StringTest {
  const scheme = compileTest("^(?:https?|ftp)://", "iu");
  const port = "(?::\\d{2,5})?$";
  const ip = compileTest(
    `^(?:[1-9]\\d?|1\\d\\d|2[01]\\d|22[0-3])(?:\\.(?:1?\\d{1,2}|2[0-4]\\d|25[0-5])){2}(?:\\.(?:[1-9]\\d?|1\\d\\d|2[0-4]\\d|25[0-4]))${port}`,
    "iu",
  );
  const privateStart = compileTest(
    "^(?:(?:10|127)(?:\\.\\d{1,3}){3}|(?:169\\.254|192\\.168)(?:\\.\\d{1,3}){2}|172\\.(?:1[6-9]|2\\d|3[0-1])(?:\\.\\d{1,3}){2})",
    "iu",
  );
  const domain = compileTest(
    `^(?:(?:[a-z0-9\\u{00a1}-\\u{ffff}]+-)*[a-z0-9\\u{00a1}-\\u{ffff}]+)(?:\\.(?:[a-z0-9\\u{00a1}-\\u{ffff}]+-)*[a-z0-9\\u{00a1}-\\u{ffff}]+)*(?:\\.(?:[a-z\\u{00a1}-\\u{ffff}]{2,}))${port}`,
    "iu",
  );
  const hostPort = (host: string) => (ip(host) && !privateStart(host)) || domain(host);
  return (value) => scheme(value) && hostFits(value.slice(value.indexOf("://") + 3), hostPort);
}

/** ECMAScript's `\s` (with `u`), by UTF-16 unit: every one of them is a single unit. */
const JS_SPACES = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005,
  0x2006, 0x2007, 0x2008, 0x2009, 0x200a, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);

/** Whether some place a host may start in `rest` (what follows "://") has a host that fits. */
function hostFits(rest: string, hostPort: StringTest): boolean {
  let firstSpace = rest.length;
  let lastSpace = -1;
  for (let i = 0; i < rest.length; i++) {
    if (!JS_SPACES.has(rest.charCodeAt(i))) continue;
    firstSpace = Math.min(firstSpace, i);
    lastSpace = i;
  }
  for (let hostStart = 0; ;) {
    let end = hostStart;
    while (end < rest.length && rest[end] !== "/" && rest[end] !== "@") end++;
    const host = rest.slice(hostStart, end);
    // After the host and port: the end, or "/" and a path of non-spaces.
    const pathFits = end === rest.length || (rest[end] === "/" && lastSpace < end);
    if (pathFits && hostPort(host)) return true;
    const at = rest.indexOf("@", Math.max(end, 1));
    if (at === -1 || at > firstSpace) return false;
    hostStart = at + 1;
  }
}
