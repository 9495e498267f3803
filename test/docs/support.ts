// Doc snippets as tests: the fenced blocks of a docs page, read from the page itself (so a test
// runs the text an app copies, not a copy of it), run with the modules and values a test hands
// them, and typechecked against latchkey's source as an app would compile them. PostgreSQL is
// the machine's server (127.0.0.1:5432, db `test`), one fresh schema per test file.
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { readFile } from "node:fs/promises"
import { POSTGRES, unreachable } from "../setup/services.js"
import { dirname, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { transform } from "esbuild"
import pg from "pg"
import ts from "typescript"

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..")

/** One fenced block of a page: its language, its text, the heading it sits under, its line. */
export interface Snippet {
  lang: string
  code: string
  heading: string
  line: number
}

/** Every fenced block of `docs/<page>`, in order. */
export function snippetsOf(page: string): Snippet[] {
  const lines = readFileSync(resolve(ROOT, "docs", page), "utf8").split("\n")
  const found: Snippet[] = []
  let heading = ""
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!
    if (line.startsWith("#")) heading = line.replace(/^#+\s*/, "")
    const fence = /^\s*```(\w*)\s*$/.exec(line)
    if (!fence) continue
    const indent = line.length - line.trimStart().length
    const body: string[] = []
    const start = index + 1
    while (++index < lines.length && !/^\s*```\s*$/.test(lines[index]!)) body.push(lines[index]!.slice(indent))
    found.push({ lang: fence[1] ?? "", code: body.join("\n"), heading, line: start })
  }
  return found
}

/** The one block of `lang` on `page` that contains `marker`; fails unless there is exactly one. */
export function snippet(page: string, lang: string, marker: string): Snippet {
  const matching = snippetsOf(page).filter((block) => block.lang === lang && block.code.includes(marker))
  if (matching.length !== 1) throw new Error(`docs/${page}: ${matching.length} ${lang} blocks contain ${JSON.stringify(marker)}, expected 1`)
  return matching[0]!
}

/**
 * Runs a TypeScript snippet and answers its exports. A snippet that is one expression is exported
 * as `default`; one that declares a `const` without exporting it exports that const. `modules`
 * answers its imports by specifier, and `scope` holds the free names it uses (such as `pool`).
 */
export async function runSnippet(code: string, modules: Record<string, object>, scope: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const declared = /^const (\w+)\s*=/m.exec(code)?.[1]
  const isStatement = /^\s*(import|export|const|let|await)\b/m.test(code)
  const source = !isStatement ? `export default (${code.trim()})` : declared && !/^export\b/m.test(code) ? `${code}\nexport { ${declared} }` : code
  const { code: js } = await transform(source, { loader: "ts", format: "cjs", target: "es2022" })
  const require = (specifier: string) => {
    const module = modules[specifier]
    if (!module) throw new Error(`the snippet imports ${specifier}, which the test did not provide`)
    // A namespace object marked as ES: esbuild's interop then takes its `default` as the default import.
    return { __esModule: true, ...module }
  }
  const module = { exports: {} as Record<string, any> }
  new Function("require", "module", "exports", ...Object.keys(scope), js)(require, module, module.exports, ...Object.values(scope))
  return module.exports
}

/** Where an app's `latchkey` imports resolve to in this repository (the package's exports, on src/). */
const LATCHKEY_PATHS = {
  latchkey: ["./src/index.ts"],
  "latchkey/providers/*": ["./src/providers/*.ts"],
  "latchkey/node": ["./src/integrations/node.ts"],
  "latchkey/next": ["./src/integrations/next/index.ts"],
  "latchkey/sveltekit": ["./src/integrations/sveltekit/index.ts"],
  "latchkey/*": ["./src/*/index.ts"],
  "#crypto-backend": ["./src/jwt/backend/node.ts"],
  "#password-kdf": ["./src/passwords/kdf/node.ts"],
}

/**
 * Typechecks snippets as an app would compile them, under the repository's tsconfig: `files` maps
 * a name (placed in test/docs/, so packages resolve from the repository) to its source. Answers
 * the diagnostics, formatted; none means it compiles.
 */
export function typecheck(files: Record<string, string>): string[] {
  const { config } = ts.readConfigFile(resolve(ROOT, "tsconfig.json"), (path) => ts.sys.readFile(path))
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, ROOT)
  const virtual = new Map(Object.entries(files).map(([name, text]) => [resolve(ROOT, "test/docs", name), text]))
  // JSX as a Next.js or Vite app compiles it, for the .tsx blocks.
  const settings = { ...options, noEmit: true, baseUrl: ROOT, paths: LATCHKEY_PATHS, jsx: ts.JsxEmit.ReactJSX }
  const host = ts.createCompilerHost(settings)
  const { getSourceFile, fileExists, readFile: read, directoryExists } = host
  host.fileExists = (path) => virtual.has(path) || fileExists(path)
  // A name may hold a folder (`providers/corp.ts`), which exists only in `files`.
  host.directoryExists = (path) => [...virtual.keys()].some((file) => file.startsWith(`${path}/`)) || (directoryExists?.(path) ?? true)
  host.readFile = (path) => virtual.get(path) ?? read(path)
  host.getSourceFile = (path, language, ...rest) => {
    const text = virtual.get(path)
    return text === undefined ? getSourceFile(path, language, ...rest) : ts.createSourceFile(path, text, language)
  }
  const program = ts.createProgram([...virtual.keys()], settings, host)
  const diagnostics = ts.getPreEmitDiagnostics(program).filter((diagnostic) => diagnostic.file && virtual.has(diagnostic.file.fileName))
  const format = { getCanonicalFileName: (name: string) => name, getCurrentDirectory: () => ROOT, getNewLine: () => "\n" }
  return diagnostics.map((diagnostic) => ts.formatDiagnostic(diagnostic, format).trim())
}

export { POSTGRES }

/**
 * Why PostgreSQL cannot be used here, or undefined. Under CI=true the server is part of the
 * run: a missing one is then a failure (the returned reason is thrown), never a silent skip.
 */
export async function postgresSkipReason(): Promise<string | undefined> {
  const reason = await unreachable("PostgreSQL", POSTGRES)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`CI=true and ${reason}: the doc snippets must run against it`)
  return reason
}

/**
 * A fresh schema holding the tables of test/adapters/sql/`file`, and a pool whose connections use
 * it (as the app's pool would use its database); `drop()` removes the schema and ends the pool.
 */
export async function postgresSchema(file: string, poolOptions: pg.PoolConfig = {}) {
  const schema = `lk_docs_${randomBytes(6).toString("hex")}`
  const connectionString = `postgres://${POSTGRES.user}@${POSTGRES.host}:${POSTGRES.port}/${POSTGRES.database}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
  const pool = new pg.Pool({ connectionString, ...poolOptions })
  await pool.query(`CREATE SCHEMA ${schema}`)
  await pool.query(await readFile(resolve(ROOT, "test/adapters/sql", file), "utf8"))
  return { pool, schema, connectionString, drop: () => pool.query(`DROP SCHEMA ${schema} CASCADE`).finally(() => pool.end()) }
}
