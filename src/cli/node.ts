#!/usr/bin/env node
/**
 * The `latchkey` executable: Node's real I/O around the commands in `commands.ts`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { createInterface } from "node:readline/promises"
import { pathToFileURL } from "node:url"
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
  writeFile: (name, contents) => {
    const path = resolve(process.cwd(), name)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, contents, { mode: 0o600 })
  },
  importModule: (name) => import(pathToFileURL(resolve(process.cwd(), name)).href),
  confirm: async (question) => {
    if (!process.stdin.isTTY) return false
    const prompt = createInterface({ input: process.stdin, output: process.stdout })
    try {
      return /^y(es)?$/i.test((await prompt.question(`${question} [y/N] `)).trim())
    } finally {
      prompt.close()
    }
  },
  // The bin is dist/cli.js; the package's own package.json sits one level up.
  version: () => {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string" ? manifest.version : "unknown"
  },
}

process.exitCode = await runCli(process.argv.slice(2), io, (text) => parseEnv(text) as Record<string, string>)
// `schema` and `doctor` import the app's auth module, whose clients (a Redis connection, a pool)
// may hold the process open; once the output has had time to flush, leave anyway. Unref'd, the
// timer itself never keeps a finished process waiting.
setTimeout(() => process.exit(), 1_000).unref()
