// npm run bench: the token benchmark once per crypto backend (each in its own process, because
// the backend is chosen by export conditions at load time), then the sign-in flow benchmark,
// bundled from TypeScript with esbuild so it can reuse the test servers. Every table is printed
// under the machine line, from interleaved rounds (bench/method.mjs).
//
//   npm run bench                    the default set below
//   npm run bench -- <name>          one benchmark: a name from BENCHES, or a block further down
//   npm run bench -- --readme        only the lines the README quotes, verbatim
//
// A new benchmark is one more entry in BENCHES (or an `if` block like the two below).
import { spawnSync } from "node:child_process"
import { build } from "esbuild"

const readme = process.argv.includes("--readme")
const name = process.argv.slice(2).find((arg) => !arg.startsWith("--"))

function run(args) {
  const env = readme ? { ...process.env, BENCH_README: "1" } : process.env
  const result = spawnSync(process.execPath, args, { stdio: "inherit", env })
  if (result.status !== 0) process.exit(result.status ?? 1)
}

// npm run bench -- sessions: only the session-read benchmark, which needs PostgreSQL on 127.0.0.1:5432.
if (process.argv[2] === "sessions") {
  run(["bench/sessions.mjs"])
  process.exit(0)
}

// npm run bench -- session-versions: a JWT read with session versions off, in memory and on Redis (issue 28).
if (process.argv[2] === "session-versions") {
  run(["bench/session-versions.mjs"])
  process.exit(0)
}

// npm run bench -- provider-tokens: what providerTokens({ refresh: true }) costs a read with nothing due.
if (process.argv[2] === "provider-tokens") {
  run(["bench/provider-tokens.mjs"])
  process.exit(0)
}

// npm run bench -- passwords: one password hash and one verify per runtime, beside better-auth's hasher.
if (process.argv[2] === "passwords") {
  run(["bench/passwords.mjs"])
  process.exit(0)
}

// npm run bench -- password-enumeration: known vs unknown address on sign-in, sign-up and forgot.
if (process.argv[2] === "password-enumeration") {
  run(["bench/password-enumeration.mjs"])
  process.exit(0)
}

// npm run bench -- rate-limits: the sign-in path with the limiter on and off (memory, Redis), and session reads.
if (process.argv[2] === "rate-limits") {
  run(["--expose-gc", "bench/rate-limits.mjs"])
  process.exit(0)
}

// npm run bench -- rate-limits-instructions: the same sign-in path counted in instructions under callgrind.
if (process.argv[2] === "rate-limits-instructions") {
  run(["bench/rate-limits-instructions.mjs"])
  process.exit(0)
}

const BENCHES = {
  // decode, getToken and encode against @auth/core and the raw limit, on both crypto backends.
  tokens: async () => {
    for (const conditions of [[], ["--conditions=worker"]]) run([...conditions, "bench/jwt.mjs"])
  },
  // startSignIn and finishSignIn against a real oidc-provider.
  flow: async () => {
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
  },
  // Memory per session check against @auth/core: peak RSS over 100k checks, bytes allocated per check.
  memory: async () => run(["bench/memory.mjs"]),
}
const DEFAULT = ["tokens", "flow"]

if (name !== undefined && !Object.hasOwn(BENCHES, name)) {
  console.error(`npm run bench: no benchmark named "${name}"; known: ${Object.keys(BENCHES).join(", ")}, sessions, session-versions, provider-tokens, passwords, password-enumeration, rate-limits, rate-limits-instructions`)
  process.exit(1)
}
for (const bench of name === undefined ? DEFAULT : [name]) await BENCHES[bench]()
