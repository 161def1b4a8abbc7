import path from "node:path";
import type { FastifyInstance } from "fastify";
import { watch as watchFiles } from "chokidar";
import { keepWatchingFolder, ready } from "../watch-folder.js";
import { formatIssue, sortIssues, type Issue, type Rules } from "../issues.js";
import type { ProjectModel } from "../model/build-model.js";
import type { Handlers } from "./handlers.js";
import { readServedModel, type ServedModel } from "./serve-model.js";

export interface SpecReloadOptions {
  readonly specs: string;
  readonly cwd: string;
  /** The config file's `rules`, which the reread specs are checked under too. */
  readonly rules?: Rules | undefined;
  /** The app that listens: the server every later app answers on. */
  readonly app: FastifyInstance;
  readonly model: ProjectModel;
  readonly handlers: Handlers;
  readonly createApp: (served: ServedModel) => FastifyInstance;
  readonly say: (line: string) => void;
}

/** The app and model answering now, as spec edits replace them. */
export interface Serving {
  readonly app: FastifyInstance;
  readonly model: ProjectModel;
  /** Stops watching, and closes the apps that replaced the first one. */
  close(): Promise<void>;
}

/**
 * Serves edited specs: each change (once the files are quiet) builds a new app from the new model
 * (routes, schemas, mocks, docs) that answers on the first app's server: same port, same TLS,
 * keep-alive connections kept. Specs with problems are reported and the old ones stay served.
 *
 * @example
 * const serving = await reloadSpecsOnChange({ specs, cwd, app, model, handlers, createApp, say });
 */
export async function reloadSpecsOnChange(options: SpecReloadOptions): Promise<Serving> {
  const { app, say } = options;
  let current = app;
  let model = options.model;
  const reload = async () => {
    const served = await readServedModel(options, say);
    if (!served.ok) return reportProblems(served.issues, options.specs, say);
    await options.handlers.addFlows(served.model.flows.map((flow) => flow.id));
    const next = options.createApp(served);
    await next.ready();
    if (current === app) {
      app.server.removeAllListeners("request");
      app.server.on("request", (request, reply) => current.routing(request, reply));
    }
    const previous = current;
    [current, model] = [next, served.model];
    if (previous !== app) await previous.close();
    say(
      `flowgen serve: reloaded the specs: ${model.flows.length} flow${model.flows.length === 1 ? "" : "s"} (${model.flows.map((flow) => flow.id).join(", ")})`,
    );
  };
  const watcher = await watchSpecs(path.resolve(options.cwd, options.specs), reload, say);
  return {
    get app() {
      return current;
    },
    get model() {
      return model;
    },
    async close() {
      await watcher.close();
      if (current !== app) await current.close();
    },
  };
}

function reportProblems(
  issues: readonly Issue[],
  specs: string,
  say: (line: string) => void,
): void {
  for (const issue of sortIssues(issues)) say(formatIssue(issue));
  say(
    `flowgen serve: ${issues.length} problem${issues.length === 1 ? "" : "s"} in ${specs}; still serving the specs as they were`,
  );
}

/** Runs `reload` once the spec files have been quiet for a moment, one reload at a time. */
async function watchSpecs(
  dir: string,
  reload: () => Promise<void>,
  say: (line: string) => void,
): Promise<{ close(): Promise<void> }> {
  let timer: NodeJS.Timeout | undefined;
  let running = Promise.resolve();
  const soon = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = running.then(reload).catch((error: unknown) => {
        say(
          `flowgen serve: the specs changed but could not be served (${error instanceof Error ? error.message : String(error)}); restart flowgen serve`,
        );
      });
    }, 100);
  };
  const watcher = watchFiles(dir, { ignoreInitial: true, atomic: true });
  watcher.on("all", (_event, file) => {
    if (/\.(json|ya?ml)$/.test(file)) soon();
  });
  const parent = keepWatchingFolder(watcher, path.resolve(dir), soon);
  await Promise.all([ready(watcher), ready(parent)]);
  return {
    close: async () => {
      clearTimeout(timer);
      await Promise.all([watcher.close(), parent.close()]);
      await running;
    },
  };
}
