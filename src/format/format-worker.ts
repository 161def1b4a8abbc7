import * as prettier from "prettier";

/** Runs in a worker thread: formats one file with options the main thread resolved. */
export default async function formatInWorker(task: { content: string; options: prettier.Options }): Promise<string> {
  return prettier.format(task.content, task.options);
}
