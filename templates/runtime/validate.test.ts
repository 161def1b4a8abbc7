import { describe, expect, it } from "vitest";
import { describeViolations } from "./validate.js";

describe("describeViolations", () => {
  it.each([
    [
      "one line per violation, the root named",
      "input" as const,
      [
        { pointer: "/question", message: "is too short" },
        { pointer: "", message: "has the wrong type" },
      ],
      "the input does not match the flow's input schema\n  /question: is too short\n  (root): has the wrong type",
    ],
    [
      "the output schema",
      "output" as const,
      [{ pointer: "/answer", message: "is required" }],
      "the output does not match the flow's output schema\n  /answer: is required",
    ],
  ])("%s", (_name, which, details, want) => {
    expect(describeViolations(which, details)).toBe(want);
  });
});
