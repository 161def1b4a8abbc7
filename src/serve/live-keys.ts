import path from "node:path";
import { watch as watchFiles } from "chokidar";
import { withCode } from "../issues.js";
import { createKeyring, devKey, KeysError, loadKeys, readKeysText, type Keyring } from "./keys.js";

/**
 * chokidar drops a change that comes within 50 ms of the one before on the same file: a save that
 * close after another is looked for again once this long has passed since the last event.
 */
const DROPPED_CHANGE_MS = 80;

/** The keys a running server accepts, kept up to date with the keys file. */
export interface LiveKeys {
  /** The keyring in force now; admission reads it for every request. */
  readonly current: () => Keyring;
  /** The key made for this run when none was configured. */
  readonly devKey: string | undefined;
  /** Stops watching the keys file. */
  close(): Promise<void>;
}

export interface LiveKeysOptions {
  /** The value of FLOWGEN_SERVE_KEYS. */
  readonly env?: string | undefined;
  /** The keys file, relative to `cwd`. */
  readonly file?: string | undefined;
  readonly cwd: string;
  /** Read the keys file again whenever it changes. */
  readonly watch: boolean;
  readonly say: (line: string) => void;
}

/**
 * Loads the keys (loadKeys; a KeysError when they are wrong), or makes a dev key when none are
 * configured. With `watch` and a keys file, every change to the file is read at once (and read
 * again shortly after, for a save the watcher dropped as too close to the one before): a removed
 * key stops working for the next request, on open keep-alive connections too (admission checks
 * a connection's header again when the keyring changes). A keys file that turns broken or is
 * deleted fails closed: no key is accepted until it is fixed, since keeping the old keys would keep
 * a key someone meant to revoke in the same edit.
 *
 * @example
 * const keys = await loadLiveKeys({ env: process.env["FLOWGEN_SERVE_KEYS"], file: "keys.json", cwd, watch: true, say: console.error });
 * keys.current().authenticate("Bearer …");
 */
export async function loadLiveKeys(options: LiveKeysOptions): Promise<LiveKeys> {
  const entries = await loadKeys(options);
  const made = entries.length === 0 ? devKey() : undefined;
  let keyring = createKeyring(made === undefined ? entries : [{ key: made, name: "dev" }]);
  const current = () => keyring;
  if (!options.watch || options.file === undefined)
    return { current, devKey: made, close: () => Promise.resolve() };

  const { file, cwd } = options;
  // The text the keyring in force was read from (read just before it, so a later change differs).
  let loaded = await readKeysText(file, cwd, []);
  const reload = async () => {
    loaded = await readKeysText(file, cwd, []);
    try {
      keyring = createKeyring(await loadKeys(options));
      options.say(
        `flowgen serve: reloaded the keys: ${keyring.size} key${keyring.size === 1 ? "" : "s"}`,
      );
    } catch (error) {
      keyring = createKeyring([]);
      const problems = error instanceof KeysError ? error.problems : [String(error)];
      for (const problem of problems)
        options.say(withCode(`flowgen serve: ${problem}`, "invalid-keys"));
      options.say(
        `flowgen serve: the keys file has ${problems.length} problem${problems.length === 1 ? "" : "s"}; every call gets 401 until it is fixed`,
      );
    }
  };
  // One reload at a time, in the order the changes came.
  let running = Promise.resolve();
  const lookAgain = async () => {
    if ((await readKeysText(file, cwd, [])) !== loaded) await reload();
  };
  let settle: NodeJS.Timeout | undefined;
  const watcher = watchFiles(path.resolve(cwd, file), { ignoreInitial: true, atomic: true });
  watcher.on("all", () => {
    running = running.then(reload);
    clearTimeout(settle);
    settle = setTimeout(() => {
      running = running.then(lookAgain);
    }, DROPPED_CHANGE_MS).unref();
  });
  await new Promise<void>((resolve) => watcher.once("ready", () => resolve()));
  return {
    current,
    devKey: made,
    close: async () => {
      clearTimeout(settle);
      await watcher.close();
      await running;
    },
  };
}
