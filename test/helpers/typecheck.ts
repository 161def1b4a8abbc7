import { execFile } from "node:child_process";
import { cp, mkdir, symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { REPO_ROOT } from "./temp-dir.js";

const run = promisify(execFile);
const TSC = path.join(REPO_ROOT, "node_modules/typescript/bin/tsc");

/**
 * Type-checks a generated tree plus a consumer file under the strict options users have, with the
 * given module resolution. Returns tsc's output; empty when it passed.
 */
export async function typecheck(dir: string, generated: string, consumer: string, resolution: "NodeNext" | "Bundler"): Promise<string> {
  await cp(generated, path.join(dir, "gen"), { recursive: true });
  await mkdir(dir, { recursive: true });
  await symlink(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"), "dir").catch(() => undefined);
  await writeFile(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  await writeFile(path.join(dir, "consumer.ts"), consumer);
  await writeFile(
    path.join(dir, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noUncheckedIndexedAccess: true,
        noImplicitOverride: true,
        exactOptionalPropertyTypes: true,
        verbatimModuleSyntax: true,
        module: resolution === "NodeNext" ? "NodeNext" : "ESNext",
        moduleResolution: resolution,
        target: "ES2022",
        lib: ["ES2022", "DOM"],
        types: [],
        noEmit: true,
        skipLibCheck: true,
      },
      include: ["consumer.ts", "gen/**/*.ts"],
    }),
  );
  try {
    await run(process.execPath, [TSC, "-p", dir], { cwd: dir });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}
