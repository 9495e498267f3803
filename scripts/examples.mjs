// Prepares an example app (examples/next-app, examples/sveltekit-app) for its test: installs its
// own node_modules from its committed package-lock.json with `npm ci` when they are missing or were
// installed from another lock, then puts this checkout's build (dist/ and package.json) into its
// node_modules/latchkey, so the app always runs the latchkey under test.
//
// The examples depend on "latchkey": "file:../.." with install-links (their .npmrc), so latchkey is
// a copy, not a symlink: a symlink would make the bundlers resolve next, react and @sveltejs/kit
// from this repository's node_modules, a second copy beside the app's own.
//
// Usage: node scripts/examples.mjs next-app [sveltekit-app ...]; or import { prepareExample }.
import { spawnSync } from "node:child_process"
import { createHash } from "node:crypto"
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")

function lockHash(dir) {
  return createHash("sha256").update(readFileSync(join(dir, "package-lock.json"))).update(process.version.split(".")[0]).digest("hex")
}

/** Installs the example when needed and copies the current build in; answers the example's folder. */
export function prepareExample(name, { log = (line) => console.log(line) } = {}) {
  const dir = join(root, "examples", name)
  if (!existsSync(join(root, "dist", "index.js"))) throw new Error("no build in dist/: run npm run build first")
  const stamp = join(dir, "node_modules", ".latchkey-example-lock")
  const hash = lockHash(dir)
  if (!existsSync(stamp) || readFileSync(stamp, "utf8") !== hash) {
    log(`examples/${name}: npm ci (node_modules missing or from another lock)`)
    const started = Date.now()
    const result = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: dir, stdio: ["ignore", "inherit", "inherit"] })
    if (result.status !== 0) throw new Error(`npm ci failed in examples/${name} (exit ${result.status})`)
    writeFileSync(stamp, hash)
    log(`examples/${name}: installed in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
  const target = join(dir, "node_modules", "latchkey")
  rmSync(join(target, "dist"), { recursive: true, force: true })
  cpSync(join(root, "dist"), join(target, "dist"), { recursive: true })
  cpSync(join(root, "package.json"), join(target, "package.json"))
  // Every subpath the package exports must be there (a build running elsewhere may have cleaned dist/ meanwhile).
  const exported = Object.values(JSON.parse(readFileSync(join(root, "package.json"), "utf8")).exports).flatMap((entry) => (typeof entry === "object" && !entry.default.includes("*") ? [entry.default, entry.types] : []))
  const missing = exported.filter((file) => !existsSync(join(target, file)))
  if (missing.length > 0) throw new Error(`examples/${name}: the copied build lacks ${missing.join(", ")}: rebuild (npm run build) and retry`)
  return dir
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const names = process.argv.slice(2)
  if (names.length === 0) throw new Error("name at least one example: next-app, sveltekit-app")
  for (const name of names) prepareExample(name)
}
