import type { Issue } from "../issues.js";
import { diffContracts, type DiffReport } from "./contract-diff.js";
import { readContract, type ContractLocation } from "./read-contract.js";

export interface DiffVersionsOptions extends ContractLocation {
  /** A git ref, an OpenAPI file or a specs folder; default `HEAD`. */
  readonly base?: string | undefined;
  /** The same; default the specs in the working tree. */
  readonly head?: string | undefined;
}

/**
 * `flowgen diff` without the CLI: reads both versions and compares their contracts. Problems in
 * either version's specs come back as issues; a version that cannot be read throws `ContractSourceError`.
 *
 * @example
 * const result = await diffVersions({ cwd: process.cwd(), specs: "specs", out: "generated", base: "origin/main" });
 * if (result.ok) process.stdout.write(formatDiffReport(result.report, "markdown"));
 */
export async function diffVersions(
  options: DiffVersionsOptions,
): Promise<{ ok: true; report: DiffReport } | { ok: false; issues: readonly Issue[] }> {
  const [base, head] = await Promise.all([
    readContract(options.base ?? "HEAD", options),
    readContract(options.head, options),
  ]);
  if (!base.ok || !head.ok)
    return {
      ok: false,
      issues: [...(base.ok ? [] : base.issues), ...(head.ok ? [] : head.issues)],
    };
  return {
    ok: true,
    report: diffContracts(base.document, head.document, { base: base.label, head: head.label }),
  };
}
