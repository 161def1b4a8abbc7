// `npm install` runs this in the repository (after its dependencies are in place) and also when
// another project installs a clone of it by folder (`npm install ../flowgen`). In that second case
// npm links the folder and installs none of its dependencies, so neither the TypeScript compiler
// nor flowgen's own run-time dependencies are there: install them from the lockfile first, without
// scripts (this one would run again), then build.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const npm = process.env["npm_execpath"];
const run = (args) =>
  npm && npm.endsWith(".js")
    ? execFileSync(process.execPath, [npm, ...args], { cwd: root, stdio: "inherit" })
    : execFileSync("npm", args, {
        cwd: root,
        stdio: "inherit",
        shell: process.platform === "win32",
      });

if (!existsSync(new URL("../node_modules/typescript/package.json", import.meta.url))) {
  run(["ci", "--ignore-scripts", "--no-audit", "--no-fund"]);
}
run(["run", "build"]);
