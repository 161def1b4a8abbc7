import { describe, expect, it } from "vitest";
import { describeRedirect, isRedirect } from "./redirect.js";

/** A response as fetch returns it: `url` and the other read-only fields set as given. */
function answer(
  status: number,
  headers: Record<string, string>,
  fields: Partial<Pick<Response, "url" | "type" | "redirected">> = {},
): Response {
  const response =
    status === 0 ? Response.error() : new Response(null, { status, headers });
  for (const [name, value] of Object.entries(fields))
    Object.defineProperty(response, name, { value });
  return response;
}

const url = "https://api.example.com/v1/@acme/qa";
const ADVICE = "a flow never redirects: check baseUrl";

describe("isRedirect", () => {
  it.each([
    ["a 3xx", answer(302, {}), true],
    ["a 304", answer(304, {}), true],
    [
      "a browser's opaque redirect",
      answer(0, {}, { type: "opaqueredirect" }),
      true,
    ],
    [
      "an answer reached through a redirect",
      answer(200, {}, { redirected: true }),
      true,
    ],
    ["a 200", answer(200, {}), false],
    ["a 400", answer(400, {}), false],
    ["a network error", answer(0, {}), false],
  ])("%s: %s", (_name, response, want) => {
    expect(isRedirect(response)).toBe(want);
  });
});

describe("describeRedirect", () => {
  it.each([
    [
      "an absolute Location: its origin only",
      answer(
        307,
        { location: "http://other.example:8080/steal?key=k" },
        { url },
      ),
      `HTTP 307 redirects to http://other.example:8080 (not called); ${ADVICE}`,
    ],
    [
      "a relative Location, against the request's URL",
      answer(301, { location: "/v2/x?key=k" }, { url }),
      `HTTP 301 redirects to https://api.example.com (not called); ${ADVICE}`,
    ],
    [
      "a Location that is not http(s)",
      answer(302, { location: "javascript:alert(1)" }, { url }),
      `HTTP 302 redirects to a javascript: URL (not called); ${ADVICE}`,
    ],
    [
      "an unreadable Location",
      answer(302, { location: "http://[nope/" }, { url }),
      `HTTP 302 redirects to an unreadable Location (not called); ${ADVICE}`,
    ],
    [
      "no Location",
      answer(304, {}, { url }),
      `HTTP 304 without a Location; ${ADVICE}`,
    ],
    [
      "a browser's opaque redirect",
      answer(0, {}, { type: "opaqueredirect", url }),
      `a redirect that the browser hides; ${ADVICE}`,
    ],
    [
      "a redirect a custom fetch followed",
      answer(
        200,
        {},
        { redirected: true, url: "https://other.example/landing?key=k" },
      ),
      "a custom fetch followed a redirect to https://other.example (its answer is not used); a flow never redirects: check baseUrl and fetch",
    ],
  ])("%s", (_name, response, message) => {
    expect(describeRedirect(response)).toEqual({
      kind: "redirected",
      code: "redirected",
      message,
      status: response.status,
      response,
    });
  });
});
