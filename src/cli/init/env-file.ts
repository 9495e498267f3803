/**
 * `.env.local` as `init` fills it: it adds the variables the app needs and never replaces one that
 * is already set (an `AUTH_SECRET` above all: replacing it would sign every user out), so running
 * `init` twice changes nothing. The secret is made as `latchkey secret` makes it: 32 random bytes,
 * base64url.
 */
import { encodeBase64url } from "../../lib/base64url.js"

/** The file Next.js and Vite load, and `latchkey secret --write` writes. */
export const ENV_FILE = ".env.local"

/** A fresh `AUTH_SECRET`: 32 random bytes, base64url (the same as `latchkey secret`). */
export function newSecret(): string {
  return encodeBase64url(crypto.getRandomValues(new Uint8Array(32)))
}

/** A variable to add, with a comment line that says what to put there. */
export interface EnvEntry {
  name: string
  value: string
  comment?: string
}

/** Whether `text` assigns `name` (as `NAME=` or `export NAME=`, commented-out lines aside). */
export function definesVariable(text: string, name: string): boolean {
  return new RegExp(`^\\s*(export\\s+)?${name}\\s*=`, "m").test(text)
}

/** The merged file and what was added and kept; `text` is `undefined` when nothing changes. */
export interface EnvMerge {
  text: string | undefined
  added: string[]
  kept: string[]
}

/** Appends the entries the file does not set yet. */
export function mergeEnvFile(existing: string | undefined, entries: EnvEntry[]): EnvMerge {
  const current = existing ?? ""
  const missing = entries.filter((entry) => !definesVariable(current, entry.name))
  const kept = entries.filter((entry) => !missing.includes(entry)).map((entry) => entry.name)
  if (missing.length === 0) return { text: undefined, added: [], kept }
  const lines = missing.flatMap((entry) => [...(entry.comment === undefined ? [] : [`# ${entry.comment}`]), `${entry.name}=${entry.value}`])
  const separator = current === "" ? "" : current.endsWith("\n") ? "\n" : "\n\n"
  return { text: `${current}${separator}${lines.join("\n")}\n`, added: missing.map((entry) => entry.name), kept }
}
