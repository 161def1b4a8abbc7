#!/usr/bin/env node
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

// A clone of the repository runs from dist/, which `npm run build` makes: say so instead of a stack.
const cli = new URL("../dist/cli.js", import.meta.url);
if (existsSync(cli)) {
  const { main } = await import(cli.href);
  process.exitCode = await main(process.argv.slice(2));
} else {
  const root = fileURLToPath(new URL("..", import.meta.url));
  process.stderr.write(`flowgen: ${root} is not built; run npm run build there.\n`);
  process.exitCode = 2;
}
