#!/usr/bin/env node
/**
 * The `latchkey` executable: Node's real I/O around the commands in `commands.ts`.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, resolve } from "node:path"
import { createInterface } from "node:readline"
import { pathToFileURL } from "node:url"
import { parseEnv } from "node:util"
import { runCli, type CliIO } from "./commands.js"
import type { InitIO } from "./init/command.js"

/**
 * The terminal's lines, read by one readline for the whole run and queued, so a line typed ahead
 * (before its question is printed) answers the next question instead of being dropped.
 */
class TerminalLines {
  private readonly lines: string[] = []
  private readonly waiting: { resolve: (line: string) => void; reject: (error: Error) => void }[] = []
  private closed = false
  readonly reader = createInterface({ input: process.stdin, output: process.stdout, terminal: true })

  constructor() {
    this.reader.on("line", (line) => (this.waiting.length > 0 ? this.waiting.shift()!.resolve(line) : this.lines.push(line)))
    // Ctrl+D or Ctrl+C ends the input: every pending and later question is cancelled.
    const cancel = () => {
      this.closed = true
      for (const { reject } of this.waiting.splice(0)) reject(Object.assign(new Error("cancelled at a question"), { name: "AbortError" }))
    }
    this.reader.on("close", cancel)
    this.reader.on("SIGINT", () => this.reader.close())
  }

  ask(question: string): Promise<string> {
    this.reader.setPrompt(question)
    this.reader.prompt()
    const queued = this.lines.shift()
    if (queued !== undefined) return Promise.resolve(queued)
    if (this.closed) return Promise.reject(Object.assign(new Error("cancelled at a question"), { name: "AbortError" }))
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }))
  }
}

let terminal: TerminalLines | undefined

/** One question on the terminal; only offered when stdin is one, so piped runs never wait. */
function ask(question: string): Promise<string> {
  terminal ??= new TerminalLines()
  return terminal.ask(question)
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
    const secret = name.startsWith(".env")
    // `mode` applies only to a file this call creates: one that was there keeps its own, however loose,
    // so it is narrowed first, before the new secret is in it.
    if (secret && existsSync(path)) chmodSync(path, 0o600)
    writeFileSync(path, contents, { mode: secret ? 0o600 : 0o644 })
  },
  importModule: (name) => import(pathToFileURL(resolve(process.cwd(), name)).href),
  // Without a terminal nobody can answer: the answer is no, and `--yes` is the way to say yes.
  confirm: async (question) => process.stdin.isTTY === true && /^y(es)?$/i.test((await ask(`${question} [y/N] `)).trim()),
  ...(process.stdin.isTTY ? { ask } : {}),
  // The bin is dist/cli.js; the package's own package.json sits one level up.
  version: () => {
    const manifest: unknown = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
    return typeof manifest === "object" && manifest !== null && "version" in manifest && typeof manifest.version === "string" ? manifest.version : "unknown"
  },
}

try {
  process.exitCode = await runCli(process.argv.slice(2), io, (text) => parseEnv(text) as Record<string, string>)
} catch (error) {
  // Ctrl+C or Ctrl+D at a question: stop without a stack trace (nothing has been written yet).
  if (!(error instanceof Error && error.name === "AbortError")) throw error
  process.stderr.write("\nCancelled; nothing was written.\n")
  process.exitCode = 130
} finally {
  terminal?.reader.close()
}
// `schema` and `doctor` import the app's auth module, whose clients (a Redis connection, a pool)
// may hold the process open; once the output has had time to flush, leave anyway. Unref'd, the
// timer itself never keeps a finished process waiting.
setTimeout(() => process.exit(), 1_000).unref()
