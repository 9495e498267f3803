/**
 * A CLI host over a real temporary directory: files are read and written there, modules are
 * imported from there (through vitest, which loads TypeScript), and every line is kept.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { pathToFileURL } from "node:url"
import type { CliIO } from "../../src/cli/io.js"

/** The absolute path of src/, for config modules that import latchkey from source. */
export const SRC = new URL("../../src/", import.meta.url).pathname

export interface DirectoryHost {
  dir: string
  io: CliIO
  out: string[]
  err: string[]
  write(name: string, contents: string): void
  read(name: string): string | undefined
  remove(): void
}

/** A host on a fresh directory; `answers` are what `confirm` says, in order (absent: no). */
export function directoryHost(env: Record<string, string> = {}, answers: boolean[] = []): DirectoryHost {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-cli-"))
  const out: string[] = []
  const err: string[] = []
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined)
  const write = (name: string, contents: string) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), contents)
  }
  const io: CliIO = {
    env,
    out: (line) => out.push(line),
    err: (line) => err.push(line),
    readFile: read,
    writeFile: write,
    version: () => "0.0.0-test",
    importModule: (name) => import(pathToFileURL(join(dir, name)).href),
    confirm: async () => answers.shift() ?? false,
  }
  return { dir, io, out, err, write, read, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
