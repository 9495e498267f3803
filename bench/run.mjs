// npm run bench: the token benchmark once per crypto backend, each in its own process because the
// backend is chosen by export conditions at load time.
import { spawnSync } from "node:child_process"

for (const conditions of [[], ["--conditions=worker"]]) {
  const result = spawnSync(process.execPath, [...conditions, "bench/jwt.mjs"], { stdio: "inherit" })
  if (result.status !== 0) process.exit(result.status ?? 1)
}
