// The build, for every command that makes dist/ (npm run build, demo, bench, size, soak, pack and
// test): tsup writes into a private folder, and the finished files then take their places in dist/.
// tsup's own clean would delete dist/ first and rebuild it over the next half minute, and anything
// reading dist/ meanwhile (a running `npm test` in another terminal: the runtime matrix, the Web
// build check, the CLI and example-app suites) failed on the missing files. Swapping the whole
// folder by two renames still left dist/ missing between them, and a reader that looked in that
// instant failed (seen once in CI). So each file is moved into dist/ by its own rename, which
// replaces a file in one step: the new chunks first (their names are hashes of their content, so
// they replace nothing), then the files with stable names that import them, then what the new
// build no longer has is removed. Every exported file is there the whole time.
// Arguments are passed to tsup (`--silent`).
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs"
import { dirname, join, relative } from "node:path"

const staging = join(".cache", `build-${process.pid}`)
const fresh = join(staging, "dist")

/** Every file under `folder`, as paths relative to it. */
function filesUnder(folder) {
  if (!existsSync(folder)) return []
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath ?? entry.path, entry.name)))
}

/** Moves `file` from the fresh build into dist/, replacing what is there in one rename. */
function moveIn(file) {
  mkdirSync(dirname(join("dist", file)), { recursive: true })
  renameSync(join(fresh, file), join("dist", file))
}

mkdirSync(staging, { recursive: true })
try {
  const tsup = spawnSync("npx", ["--no-install", "tsup", ...process.argv.slice(2)], { stdio: "inherit", env: { ...process.env, LATCHKEY_BUILD_DIR: fresh } })
  if (tsup.status !== 0) process.exit(tsup.status ?? 1)
  const built = filesUnder(fresh)
  const before = new Set(filesUnder("dist"))
  for (const file of built.filter((name) => !before.has(name))) moveIn(file)
  for (const file of built.filter((name) => before.has(name))) moveIn(file)
  const kept = new Set(built)
  for (const file of before) if (!kept.has(file)) rmSync(join("dist", file), { force: true })
} finally {
  rmSync(staging, { recursive: true, force: true })
}
