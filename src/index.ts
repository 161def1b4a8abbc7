/**
 * flowgen as a library: the same runs as the CLI, with the same config file, returning values
 * instead of printing. The heavy stages load only when a run needs them.
 */
export {
  defineConfig,
  type FlowgenConfig,
  type FlowgenServeConfig,
} from "./config/define-config.js";
export { loadConfig, type LoadedConfig } from "./config/load-config.js";
export type { GenerateSettings, ServeSettings } from "./config/resolve-settings.js";
export {
  check,
  generate,
  type CheckResult,
  type GenerateOptions,
  type GenerateResult,
} from "./api/generate.js";
export { watch, type GenerateWatcher, type WatchOptions, type WatchRun } from "./api/watch.js";
export { serve, type ServeApiOptions } from "./api/serve.js";
export type { ServeResult } from "./serve/serve.js";
export {
  verify,
  type CaseResult,
  type FlowReport,
  type VerifyClock,
  type VerifyOptions,
  type VerifyReport,
  type VerifyResult,
  type Violation,
} from "./api/verify.js";
export {
  formatIssue,
  RULE_DEFAULTS,
  type Issue,
  type IssueCode,
  type RuleCode,
  type Rules,
  type Severity,
} from "./issues.js";
export type { OutputDiff } from "./write/write-output.js";
