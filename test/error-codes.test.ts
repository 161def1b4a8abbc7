import { readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ERROR_SCHEMAS } from "../src/compile/platform-components.js";
import { ERROR_CODES, PRECISE_ERROR_CODES, errorBodyCodes } from "../src/model/error-codes.js";
import { HttpError, type ErrorStatus } from "../src/serve/error-body.js";
import { REPO_ROOT } from "./helpers/temp-dir.js";

/** The codes an error body's `code` description lists, in its order. */
function describedCodes(description: string): string[] {
  const listed = /^Stable, machine-readable reason: ([a-z_, ]+)\. /.exec(description)?.[1];
  return listed === undefined ? [] : listed.split(", ");
}

describe("the error body's codes", () => {
  it("the OpenAPI description lists every code serve answers with, and no other", () => {
    const described = describedCodes(ERROR_SCHEMAS.FlowErrorBody.properties.code.description);
    const answered = [
      ...Object.keys(ERROR_CODES).map(
        (status) => new HttpError(Number(status) as ErrorStatus, "x").body(undefined).code,
      ),
      ...(Object.keys(PRECISE_ERROR_CODES) as (keyof typeof PRECISE_ERROR_CODES)[]).map(
        (code) => new HttpError(PRECISE_ERROR_CODES[code], "x", { code }).body(undefined).code,
      ),
    ];
    expect([...described].sort()).toEqual([...answered].sort());
    expect(described).toEqual(errorBodyCodes());
    expect(described).toEqual(expect.arrayContaining(["expectation_failed", "request_timeout"]));
    expect(described).toContain("headers_too_large");
  });

  it("the committed openapi.json says the same", async () => {
    const document = JSON.parse(
      await readFile(path.join(REPO_ROOT, "generated/openapi.json"), "utf8"),
    ) as {
      components: { schemas: { FlowErrorBody: { properties: { code: { description: string } } } } };
    };
    expect(
      describedCodes(document.components.schemas.FlowErrorBody.properties.code.description),
    ).toEqual(errorBodyCodes());
  });
});
