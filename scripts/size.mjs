// npm run size: min+gzip per public entry, bundled for the Web (worker/browser conditions) the way
// an app's code-splitting bundler ships it. "initial" is the entry plus every chunk it imports
// statically; "lazy" is what loads only on demand (the sign-in page's provider marks). "own" is the
// initial load with the runtime dependencies left out, so a budget can be read as latchkey's code
// plus what jose, oauth4webapi, @panva/hkdf and cookie cost. Each entry is compared with
// @auth/core measured the same way, and the script fails when one exceeds its budget.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"

const KB = 1024
const RUNTIME_DEPENDENCIES = Object.keys(JSON.parse(readFileSync("package.json", "utf8")).dependencies)
/** Budgets in bytes, min+gzip of the initial load. */
const ENTRIES = [
  // The guard moved from 6.9 to 7.3 KB for the hardening of the security work (strict key scan,
  // header allowlist, tossed-cookie detection: +0.5 KB). The 4 KB target is not yet met.
  { name: "latchkey/jwt (encode, decode, getToken)", code: `export { encode, decode, getToken } from "latchkey/jwt"`, budget: 7.3 * KB, target: 4 * KB, peer: `export { encode, decode, getToken } from "@auth/core/jwt"` },
  { name: "latchkey/providers/github", code: `export { default } from "latchkey/providers/github"`, budget: 1 * KB, peer: `export { default } from "@auth/core/providers/github"` },
  // Budgeted at what it measured when first reported (27.9 KB), plus 10%.
  // Raised from 30.7 KB on purpose: the security hardening and OIDC conformance (JWKS re-fetch on
  // key rotation, signed userinfo, the alg and iat checks, cause sanitising) took the entry from
  // 28.6 to 30.6 KB, and the full Auth.js adapter interface (method checks, memoryAdapter) to 31.1.
  { name: "latchkey/oauth", code: `export * from "latchkey/oauth"`, budget: 31.5 * KB },
  { name: "createAuth + GitHub", code: `export { createAuth } from "latchkey"; export { default as GitHub } from "latchkey/providers/github"`, budget: 50 * KB, peer: `export { Auth } from "@auth/core"; export { default as GitHub } from "@auth/core/providers/github"` },
]

async function measure(code, external = []) {
  const outdir = mkdtempSync(join(tmpdir(), "latchkey-size-"))
  try {
    const { metafile } = await build({
      stdin: { contents: code, resolveDir: process.cwd(), sourcefile: "entry.js" },
      bundle: true,
      splitting: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      conditions: ["worker", "browser"],
      mainFields: ["module", "main"],
      // The project tsconfig maps #crypto-backend for typechecking; an app's bundler never sees it.
      tsconfig: "test/runtime/tsconfig.bundle.json",
      outdir,
      metafile: true,
      external,
      logLevel: "error",
    })
    const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length
    // Dynamic-import targets are entry points too; the measured one is the stdin entry.
    const entry = Object.keys(metafile.outputs).find((file) => metafile.outputs[file].entryPoint === "entry.js")
    const initial = new Set()
    const visit = (file) => {
      if (initial.has(file)) return
      initial.add(file)
      for (const imported of metafile.outputs[file].imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path)
    }
    visit(entry)
    const all = Object.keys(metafile.outputs).filter((file) => file.endsWith(".js"))
    const sum = (files) => files.reduce((total, file) => total + gz(file), 0)
    return { initial: sum([...initial]), lazy: sum(all.filter((file) => !initial.has(file))) }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`
let failed = false
console.log("| entry | latchkey (initial) | own code + dependencies | lazy | budget | @auth/core |")
console.log("|---|---:|---:|---:|---:|---:|")
for (const entry of ENTRIES) {
  const ours = await measure(entry.code)
  const own = (await measure(entry.code, RUNTIME_DEPENDENCIES)).initial
  const peer = entry.peer ? kb((await measure(entry.peer)).initial) : "–"
  const over = ours.initial > entry.budget
  failed ||= over
  const target = entry.target ? ` (target ${kb(entry.target)})` : ""
  const split = `${kb(own)} + ${kb(ours.initial - own)}`
  console.log(`| ${entry.name} | ${kb(ours.initial)}${over ? " OVER" : ""} | ${split} | ${ours.lazy ? kb(ours.lazy) : "–"} | ${kb(entry.budget)}${target} | ${peer} |`)
}
if (failed) {
  console.error("\nsize: an entry is over its budget")
  process.exit(1)
}
