import path from "node:path";
import type { Issue } from "../issues.js";
import { readRegularFile } from "../read-text-files.js";
import type { OutputFile } from "../output-file.js";
import type { SpecSources } from "../spec/read-spec-files.js";
import { diffContracts, type DiffReport } from "./contract-diff.js";

/**
 * What a run that rendered the contract knows of it besides its text: its value, which the text
 * prints (no need to parse it again), and which flows an earlier text shows as they are now.
 */
export interface RenderedContract {
  readonly document: unknown;
  readonly unchangedSince: (previous: string) => ReadonlySet<string>;
}

/**
 * The breaking-change gate of `flowgen generate`: the contract diff against the output folder, and
 * with `failOnBreaking`, its breaking changes as problems (`refused`) so that nothing is written.
 *
 * @example
 * const { contract, refused } = await checkOutputContract({ cwd, specs: "specs", out: "generated", failOnBreaking: true }, sources, files);
 */
export async function checkOutputContract(
  options: {
    readonly cwd: string;
    readonly specs: string;
    readonly out: string;
    readonly failOnBreaking?: boolean | undefined;
  },
  sources: SpecSources,
  files: readonly OutputFile[],
  known?: RenderedContract,
): Promise<{ contract?: DiffReport; refused?: Issue[] }> {
  const shown = (folder: string) =>
    path.relative(options.cwd, path.resolve(options.cwd, folder)).split(path.sep).join("/") || ".";
  const labels = { base: `${shown(options.out)}/openapi.json`, head: shown(options.specs) };
  const contract = await diffWithOutput(
    path.resolve(options.cwd, options.out),
    files,
    labels,
    known,
  );
  if (contract === undefined) return {};
  if (!options.failOnBreaking || contract.breaking === 0) return { contract };
  const specFiles = new Map(
    sources.flows.map((flow) => [`@${flow.org}/${flow.name}`, flow.displayPath]),
  );
  return {
    contract,
    refused: breakingIssues(contract, (flow) => specFiles.get(flow) ?? `${labels.head}/${flow}`),
  };
}

/**
 * Compares the contract a run rendered with the one in the output folder it is about to replace
 * (`generated/openapi.json`). Undefined when there is none yet, it is unreadable, or it is unchanged.
 * `known`, from the run that rendered it: the rendered contract's value, and the flows whose
 * contracts the previous text is known to show as they are now (this machine rendered it from the
 * same inputs), which are not compared.
 *
 * @example
 * const report = await diffWithOutput("/repo/generated", files, { base: "generated/openapi.json", head: "specs" });
 */
export async function diffWithOutput(
  outDir: string,
  files: readonly OutputFile[],
  labels: { base: string; head: string },
  known?: RenderedContract,
): Promise<DiffReport | undefined> {
  const rendered = files.find((file) => file.path === "openapi.json")?.content;
  // Never through a link: a linked openapi.json is not flowgen's, and its content is not shown.
  const previous = await readRegularFile(path.join(outDir, "openapi.json"));
  if (rendered === undefined || previous === undefined || previous === rendered) return undefined;
  let base: unknown;
  try {
    base = JSON.parse(previous);
  } catch {
    return undefined;
  }
  return diffContracts(base, known?.document ?? JSON.parse(rendered), labels, {
    unchanged: known?.unchangedSince(previous),
  });
}

/**
 * Each breaking change as a problem in the flow's spec file, for `--fail-on-breaking`.
 *
 * @example
 * breakingIssues(report, (flow) => `specs/${flow}.json`);
 */
export function breakingIssues(report: DiffReport, specFileOf: (flow: string) => string): Issue[] {
  return report.changes
    .filter((change) => change.kind === "breaking")
    .map((change) => ({
      code: "breaking-change",
      file: specFileOf(change.flow),
      ...(change.pointer === "" ? {} : { pointer: change.pointer }),
      message: `${change.message}: this breaks callers (${change.rule}); make the change compatible, or publish it as a new flow and deprecate this one, or generate without --fail-on-breaking to accept it`,
    }));
}
