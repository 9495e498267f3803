// The build, for every command that makes dist/ (npm run build, demo, bench, size, soak, pack and
// test): tsup writes into a private folder, and the finished folder then takes dist/'s place.
// tsup's own clean would delete dist/ first and rebuild it over the next half minute, and anything
// reading dist/ meanwhile (a running `npm test` in another terminal: the runtime matrix, the Web
// build check, the CLI and example-app suites) failed on the missing files. Here dist/ is always
// either the previous complete build or the new one: the swap is two renames, microseconds apart.
// Arguments are passed to tsup (`--silent`).
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs"
import { join } from "node:path"

const staging = join(".cache", `build-${process.pid}`)
const fresh = join(staging, "dist")
mkdirSync(staging, { recursive: true })
try {
  const tsup = spawnSync("npx", ["--no-install", "tsup", ...process.argv.slice(2)], { stdio: "inherit", env: { ...process.env, LATCHKEY_BUILD_DIR: fresh } })
  if (tsup.status !== 0) process.exit(tsup.status ?? 1)
  const previous = join(staging, "previous")
  if (existsSync("dist")) renameSync("dist", previous)
  renameSync(fresh, "dist")
} finally {
  rmSync(staging, { recursive: true, force: true })
}
