#!/usr/bin/env node
/**
 * The `latchkey` executable: Node's real I/O around the commands in `commands.ts`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { createInterface } from "node:readline/promises"
import { parseEnv } from "node:util"
import { runCli, type CliIO } from "./commands.js"
import type { InitIO } from "./init/command.js"

/** One question on the terminal; only offered when stdin is one, so piped runs never wait. */
async function ask(question: string): Promise<string> {
  const terminal = createInterface({ input: process.stdin, output: process.stdout })
  try {
    return await terminal.question(question)
  } finally {
    terminal.close()
  }
}

const io: CliIO & InitIO = {
  env: process.env,
  out: (line) => process.stdout.write(`${line}\n`),
  err: (line) => process.stderr.write(`${line}\n`),
  readFile: (name) => {
    const path = resolve(process.cwd(), name)
    return existsSync(path) ? readFileSync(path, "utf8") : undefined
  },
  // init writes into folders that may not exist yet (app/auth/[...latchkey]/). Env files hold secrets:
  // only their owner may read them.
  writeFile: (name, contents) => {
    const path = resolve(process.cwd(), name)
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, contents, { mode: name.startsWith(".env") ? 0o600 : 0o644 })
  },
  ...(process.stdin.isTTY ? { ask } : {}),
  // The bin is dist/cli.js; the package's own package.json sits one level up.
  version: () => {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string" ? manifest.version : "unknown"
  },
}

process.exitCode = await runCli(process.argv.slice(2), io, (text) => parseEnv(text) as Record<string, string>)
