/**
 * Next.js's config for an app on PGlite. PGlite reads its WebAssembly and data files from beside its
 * own module (a `new URL(..., import.meta.url)`); bundled into the server build, that URL no longer
 * points at a file, so the build stops (`The "path" argument must be ... Received an instance of
 * URL`) and every adapter call fails at run time. `serverExternalPackages` leaves it to Node.
 * `init` writes the config when the app has none, adds the line to create-next-app's (one
 * `nextConfig = {` object), and otherwise prints the line to add.
 */
import type { FileAddition, PlannedFile } from "../plan.js"

const PACKAGE = "@electric-sql/pglite"
const EXTERNAL = `serverExternalPackages: ["${PACKAGE}"],`
const WHY = ["// PGlite loads its WebAssembly from its own folder, which a bundle does not keep: Next.js leaves it to Node."]

/** Where a config object starts: `const nextConfig = {` (typed or not), `export default {` or `module.exports = {`. */
const OBJECT_START = /^(?:(?:const|let|var)\s+\w+\s*(?::\s*NextConfig\s*)?=|export\s+default|module\.exports\s*=)\s*\{/gm

/** The config with `serverExternalPackages` as its object's first field, or `undefined` when its shape is not that simple. */
function addExternal(config: string): string | undefined {
  if (config.includes("serverExternalPackages")) return new RegExp(`serverExternalPackages\\s*:\\s*\\[[^\\]]*["']${PACKAGE}["']`).test(config) ? config : undefined
  const starts = [...config.matchAll(OBJECT_START)]
  if (starts.length !== 1) return undefined
  const open = starts[0]!.index + starts[0]![0].length
  const rest = config.slice(open)
  const lines = (indent: string) => [...WHY, EXTERNAL].map((line) => `\n${indent}${line}`).join("")
  // `{` ends its line (create-next-app's template): the field goes first, indented as the next field is.
  if (/^[ \t]*\r?\n/.test(rest)) {
    const indent = /^[ \t]*\r?\n([ \t]+)\S/.exec(rest)?.[1] ?? "  "
    return `${config.slice(0, open)}${lines(indent)}${rest}`
  }
  // An object with nothing in it on one line, `{}` or `{ /* config options here */ }`, opens onto lines.
  const empty = /^[ \t]*(\/\*.*?\*\/)?[ \t]*\}/.exec(rest)
  if (empty === null) return undefined
  const placeholder = empty[1] === undefined ? "" : `\n  ${empty[1]}`
  return `${config.slice(0, open)}${placeholder}${lines("  ")}\n}${rest.slice(empty[0].length)}`
}

const ADDITION: FileAddition = { what: `serverExternalPackages: ["${PACKAGE}"]`, addTo: addExternal }

function newConfig(typescript: boolean): string {
  const head = typescript ? ['import type { NextConfig } from "next"', "", "const nextConfig: NextConfig = {"] : ['/** @type {import("next").NextConfig} */', "const nextConfig = {"]
  return [...head, ...[...WHY, EXTERNAL].map((line) => `  ${line}`), "}", "", "export default nextConfig", ""].join("\n")
}

/** The Next.js config file for an app on PGlite: the app's own (`existing`), or a new one. */
export function pgliteNextConfig(existing: string | undefined, typescript: boolean): PlannedFile {
  return {
    path: existing ?? (typescript ? "next.config.ts" : "next.config.mjs"),
    contents: newConfig(typescript),
    ifExists: `add \`${EXTERNAL}\` to its config object (or "${PACKAGE}" to the serverExternalPackages it has): Next.js must not bundle PGlite, which loads its WebAssembly from its own folder`,
    addition: ADDITION,
  }
}
