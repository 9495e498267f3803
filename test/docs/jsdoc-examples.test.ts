// The @example of every export, as the API reference (typedoc) shows it, typechecked as an app
// would compile it. An example may be a fragment that leaves names to its reader (`adapter`,
// `user`, an app's own `./auth` module), so those diagnostics are let through; anything else (a
// wrong import, a member that does not exist, a value of the wrong type) is an example that would
// not compile where it is copied to, and fails. Found wanting once: two examples passed a plain
// `{ store }` as `rateLimits`, which createAuth refuses, and two imported memoryAdapter from where
// it no longer lives.
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, resolve } from "node:path"
import { describe, expect } from "vitest"
import { itTypechecks } from "../setup/typechecks.js"
import { typecheck } from "./support.js"

const ROOT = resolve(import.meta.dirname, "../..")

/** Diagnostics a fragment makes by leaving names to its reader: not a fault of the example. */
const LEFT_TO_THE_READER = new Set([
  2304, // Cannot find name 'adapter'
  2552, // Cannot find name 'x'. Did you mean 'y'?
  18004, // No value exists in scope for the shorthand property
  7006, // Parameter implicitly has an 'any' type (its context is the reader's)
  7031, // Binding element implicitly has an 'any' type
  2323, // Cannot redeclare exported variable (two alternatives in one block)
  2393, // Duplicate function implementation (the same)
  2451, // Cannot redeclare block-scoped variable (the same)
])

interface Example {
  source: string
  line: number
  code: string
  jsx: boolean
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name)
    return statSync(path).isDirectory() ? sourceFiles(path) : path.endsWith(".ts") ? [path] : []
  })
}

/** Every ```ts block under an @example tag in src/, with the comment's `*` margin taken off. */
function examples(): Example[] {
  const found: Example[] = []
  for (const path of sourceFiles(resolve(ROOT, "src"))) {
    const text = readFileSync(path, "utf8")
    for (const match of text.matchAll(/@example[^\n]*\n(?:[ \t]*\*[^\n]*\n)*?[ \t]*\*[ \t]*```(?:ts|tsx|typescript)[ \t]*\n((?:[ \t]*\*[^\n]*\n)*?)[ \t]*\*[ \t]*```/g)) {
      const code = match[1]!.split("\n").map((line) => line.replace(/^[ \t]*\* ?/, "")).join("\n")
      const line = text.slice(0, match.index).split("\n").length
      found.push({ source: relative(ROOT, path), line, code, jsx: /<\/|\/>/.test(code) })
    }
  }
  return found
}

describe("the API reference's examples", () => {
  itTypechecks("compile where an app copies them (fragments may leave names to the reader)", () => {
    const all = examples()
    expect(all.length).toBeGreaterThan(500)
    const files = Object.fromEntries(all.map((example, index) => [`jsdoc-examples/${index}.${example.jsx ? "tsx" : "ts"}`, `export {}\n${example.code}`]))
    const faults = typecheck(files)
      .filter((line) => !LEFT_TO_THE_READER.has(Number(/error TS(\d+)/.exec(line)?.[1])))
      // An app's own modules (`./auth`, `@/auth`) are the reader's too.
      .filter((line) => !/TS2307: Cannot find module '(\.|@\/)/.test(line))
      .map((line) => {
        const index = Number(/jsdoc-examples\/(\d+)\./.exec(line)?.[1])
        const example = all[index]
        return example ? `${example.source}:${example.line}: ${line.replace(/^.*?error /, "")}` : line
      })
    expect(faults).toEqual([])
  }, 120_000)
})
