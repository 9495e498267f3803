// Review 7 (CLI): the built bin run as a user runs it, in a throwaway app folder.
import { spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { parseEnv } from "node:util"
import { onTestFinished } from "vitest"

export const BIN = resolve("dist/cli.js")
export const HAS_BIN = existsSync(BIN)

/** Variables a developer's shell may hold that would change what the CLI reads: removed for each run. */
const SCRUBBED = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3", "NEXTAUTH_SECRET", "AUTH_URL", "NEXTAUTH_URL", "AUTH_TRUST_HOST", "DATABASE_URL", "NODE_OPTIONS"]

export interface BinApp {
  dir: string
  write(name: string, contents: string, mode?: number): void
  read(name: string): string | undefined
  mode(name: string): number
  run(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>
  /** The AUTH_SECRET (or any variable) the app sees: .env.local over .env, as Next.js and Vite read them. */
  appSees(name: string): string | undefined
}

export function binApp(files: Record<string, string> = {}): BinApp {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-review7-cli-"))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  const write = (name: string, contents: string, mode?: number) => {
    mkdirSync(dirname(join(dir, name)), { recursive: true })
    writeFileSync(join(dir, name), contents)
    if (mode !== undefined) chmodSync(join(dir, name), mode)
  }
  for (const [name, contents] of Object.entries(files)) write(name, contents)
  const read = (name: string) => (existsSync(join(dir, name)) ? readFileSync(join(dir, name), "utf8") : undefined)
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of SCRUBBED) delete env[name]
  return {
    dir,
    write,
    read,
    mode: (name) => statSync(join(dir, name)).mode & 0o777,
    run: (...args) =>
      new Promise((done, fail) => {
        const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, env, stdio: ["pipe", "pipe", "pipe"] })
        let stdout = ""
        let stderr = ""
        child.stdout.on("data", (chunk) => (stdout += chunk))
        child.stderr.on("data", (chunk) => (stderr += chunk))
        child.stdin.end()
        const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
        child.on("error", fail)
        child.on("close", (code) => {
          clearTimeout(timer)
          done({ code, stdout, stderr })
        })
      }),
    appSees(name) {
      const base = parseEnv(read(".env") ?? "") as Record<string, string>
      const local = parseEnv(read(".env.local") ?? "") as Record<string, string>
      return local[name] ?? base[name]
    },
  }
}
