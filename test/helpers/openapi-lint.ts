import SwaggerParser from "@apidevtools/swagger-parser";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import type { OpenAPI } from "openapi-types";

/**
 * What two tools people feed OpenAPI documents to say about one: Redocly's `lint` with its
 * recommended rules (errors only; warnings such as a missing license are the user's call) and
 * swagger-parser's `validate`. Both run in-process. Empty when both accept the document.
 */
export async function lintOpenApi(text: string): Promise<string[]> {
  const config = await createConfig({ extends: ["recommended"] });
  const problems = await lintFromString({ source: text, absoluteRef: "/openapi.json", config });
  const errors = problems
    .filter((problem) => problem.severity === "error")
    .map(
      (problem) =>
        `redocly ${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer ?? ""}`,
    );
  try {
    // validate() dereferences the object it is given: a fresh copy each time.
    await SwaggerParser.validate(JSON.parse(text) as OpenAPI.Document);
  } catch (error) {
    errors.push(`swagger-parser: ${(error as Error).message}`);
  }
  return errors;
}
