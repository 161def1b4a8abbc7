import type { Stage, StageObserver } from "../stage-times.js";
import type { Paint, Terminal } from "./terminal.js";

/** What each stage is doing, as the progress line says it. */
const DOING: Record<Stage, string> = {
  "spec read": "reading the specs",
  manifest: "reading the manifest",
  checks: "checking the specs",
  model: "building the model",
  compile: "compiling the OpenAPI document",
  types: "rendering",
  emit: "rendering",
  format: "rendering",
  write: "writing",
};

/** Redraws at most this often, so a run of thousands of files writes a few lines a second. */
const REDRAW_MS = 100;

export interface Progress extends StageObserver {
  /** Clears the line (if one was drawn) and stops; call before printing the run's result. */
  finish(): void;
}

export interface ProgressOptions {
  readonly paint: Paint;
  /** Milliseconds since some fixed point; injected by tests. Default `performance.now`. */
  readonly now?: (() => number) | undefined;
  /** Nothing is shown before the run has taken this long. Default 1000. */
  readonly delayMs?: number | undefined;
}

/**
 * One line on the terminal, redrawn in place, saying which stage a run is in and how many of its
 * files are done: `flowgen: rendering 340/2080 files`. A run that ends within `delayMs` shows
 * nothing. A timer redraws during long stages that report nothing; it never keeps the process alive.
 *
 * @example
 * const progress = createProgress(process.stderr, { paint });
 * await generate({ cwd, onProgress: progress });
 * progress.finish();
 */
export function createProgress(terminal: Terminal, options: ProgressOptions): Progress {
  const now = options.now ?? (() => performance.now());
  const delayMs = options.delayMs ?? 1000;
  const started = now();
  let stage: Stage | undefined;
  let files: { done: number; total: number } | undefined;
  let shown = "";
  let drawnAt = -Infinity;
  const draw = (force: boolean) => {
    const at = now();
    if (stage === undefined || at - started < delayMs) return;
    if (!force && at - drawnAt < REDRAW_MS) return;
    const count =
      files !== undefined && DOING[stage] === "rendering"
        ? ` ${files.done}/${files.total} files`
        : "";
    const line = fit(`flowgen: ${DOING[stage]}${count}`, terminal.columns);
    if (line === shown) return;
    terminal.write(`\r\u001b[2K${options.paint.dim(line)}`);
    shown = line;
    drawnAt = at;
  };
  const timer = setInterval(() => draw(true), REDRAW_MS * 2);
  timer.unref();
  return {
    stageStarted(next) {
      const changed = next !== stage;
      stage = next;
      draw(changed);
    },
    produced(done, total) {
      files = { done, total };
      draw(false);
    },
    finish() {
      clearInterval(timer);
      if (shown !== "") terminal.write("\r\u001b[2K");
      shown = "";
    },
  };
}

/** The line cut to the terminal's width, so it never wraps (a wrapped line cannot be redrawn). */
function fit(line: string, columns: number | undefined): string {
  return columns === undefined || columns < 2 || line.length < columns
    ? line
    : `${line.slice(0, columns - 2)}…`;
}
