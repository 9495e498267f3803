// npm run bench: the token benchmark once per crypto backend (each in its own process, because
// the backend is chosen by export conditions at load time), then the sign-in flow benchmark,
// bundled from TypeScript with esbuild so it can reuse the test servers.
import { spawnSync } from "node:child_process"
import { build } from "esbuild"

function run(args) {
  const result = spawnSync(process.execPath, args, { stdio: "inherit" })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

// npm run bench -- sessions: only the session-read benchmark, which needs PostgreSQL on 127.0.0.1:5432.
if (process.argv[2] === "sessions") {
  run(["bench/sessions.mjs"])
  process.exit(0)
}

for (const conditions of [[], ["--conditions=worker"]]) run([...conditions, "bench/jwt.mjs"])

await build({
  entryPoints: ["bench/oauth.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  packages: "external",
  outfile: ".cache/bench/oauth.mjs",
  logLevel: "error",
})
run([".cache/bench/oauth.mjs"])
