// A throwaway app folder for the `latchkey init` tests: real files in a temp directory, and the
// CLI's I/O over it (what it prints is kept; questions are answered from a list, as a user would).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { parseEnv } from "node:util"
import { onTestFinished } from "vitest"
import { runCli, type CliIO } from "../../src/cli/commands.js"
import type { InitIO } from "../../src/cli/init/command.js"

export interface TempApp {
  dir: string
  out: string[]
  err: string[]
  /** Questions asked, in order. */
  asked: string[]
  read(path: string): string | undefined
  exists(path: string): boolean
  init(...args: string[]): Promise<number>
}

/** An app folder with `files`; `answers` makes stdin a terminal that replies with them in turn. */
export function tempApp(files: Record<string, string>, answers?: string[]): TempApp {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-init-"))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), contents)
  }
  const out: string[] = []
  const err: string[] = []
  const asked: string[] = []
  const read = (path: string) => (existsSync(join(dir, path)) ? readFileSync(join(dir, path), "utf8") : undefined)
  const io: CliIO & InitIO = {
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readFile: read,
    writeFile: (path, contents) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true })
      writeFileSync(join(dir, path), contents)
    },
    version: () => "0.0.0-test",
  }
  if (answers !== undefined) {
    io.ask = async (question) => {
      asked.push(question)
      const answer = answers.shift()
      if (answer === undefined) throw new Error(`asked more than the test answers: ${question}`)
      return answer
    }
  }
  return {
    dir,
    out,
    err,
    asked,
    read,
    exists: (path) => existsSync(join(dir, path)),
    init: (...args) => runCli(["init", ...args], io, (text) => parseEnv(text) as Record<string, string>),
  }
}

/** A package.json with these dependencies. */
export function manifest(dependencies: Record<string, string>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ name: "app", private: true, ...extra, dependencies }, null, 2)
}
