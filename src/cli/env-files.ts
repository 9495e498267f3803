/**
 * The app's `.env` and `.env.local`, read the way Next.js and Vite do: the process environment
 * wins, then `.env.local`, then `.env`. The CLI must see what the app sees, or `doctor` checks a
 * different secret and importing the app's config fails for want of `AUTH_SECRET`.
 */
import type { CliIO } from "./io.js"

/** The files read, lowest precedence first. */
export const ENV_FILES = [".env", ".env.local"] as const

/** A value in quotes (double, single or backticks), then at most white space and a comment. */
const QUOTED = /^(["'`])(.*?)\1\s*(?:#.*)?$/

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/

/** The variables of a dotenv text: `KEY=value`, quoted values, `#` comments. */
export function parseEnvText(text: string): Record<string, string> {
  const values: Record<string, string> = {}
  for (const line of text.split(/\r?\n/)) {
    const match = LINE.exec(line)
    if (!match) continue
    const [, name, raw = ""] = match
    // A quoted value ends at its closing quote; a `# comment` may follow it, as dotenv and Node's parseEnv read it.
    const quoted = QUOTED.exec(raw)
    if (quoted !== null) {
      const [, quote, inner = ""] = quoted
      values[name!] = quote === '"' ? inner.replace(/\\n/g, "\n") : inner
    } else {
      values[name!] = raw.replace(/\s+#.*$/, "")
    }
  }
  return values
}

/** The variables the app sees: the environment over `.env.local` over `.env`, and where each came from. */
export function appEnvironment(io: Pick<CliIO, "readFile" | "env">): { env: Record<string, string>; sources: Record<string, string> } {
  const env: Record<string, string> = {}
  const sources: Record<string, string> = {}
  for (const file of ENV_FILES) {
    const text = io.readFile(file)
    if (text === undefined) continue
    for (const [name, value] of Object.entries(parseEnvText(text))) {
      env[name] = value
      sources[name] = file
    }
  }
  for (const [name, value] of Object.entries(io.env)) {
    if (typeof value !== "string") continue
    env[name] = value
    sources[name] = "the environment"
  }
  return { env, sources }
}

/** Copies the files' variables into `io.env` where it has none, so the app's module sees them on import. */
export function exposeEnvFiles(io: CliIO): void {
  const target = io.env as Record<string, string | undefined>
  for (const [name, value] of Object.entries(appEnvironment(io).env)) target[name] ??= value
}
