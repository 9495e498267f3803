#!/usr/bin/env node
/**
 * The `latchkey` executable: Node's real I/O around the commands in `commands.ts`.
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { parseEnv } from "node:util"
import { runCli, type CliIO } from "./commands.js"

const io: CliIO = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readFile: (name) => {
    const path = resolve(process.cwd(), name)
    return existsSync(path) ? readFileSync(path, "utf8") : undefined
  },
  writeFile: (name, contents) => writeFileSync(resolve(process.cwd(), name), contents, { mode: 0o600 }),
  // The bin is dist/cli.js; the package's own package.json sits one level up.
  version: () => {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string" ? manifest.version : "unknown"
  },
}

process.exitCode = await runCli(process.argv.slice(2), io, (text) => parseEnv(text) as Record<string, string>)
