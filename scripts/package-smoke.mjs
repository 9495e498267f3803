// The packed-tarball smoke test: pack latchkey, install the tarball into a fresh project, import
// every subpath from ESM under Node, and typecheck a consumer with moduleResolution bundler and
// node16 on TypeScript 5, 6 (what SvelteKit's template installs) and 7 (the native compiler, npm's
// latest). The project starts without @simplewebauthn/server (an optional peer): every subpath
// must import without it, and a passkey request must fail with the typed MissingDependencyError
// naming the install line; once the peer is installed, the same request must succeed. It uses the
// registry for latchkey's dependencies, typescript, react (latchkey/react's peer) and
// @simplewebauthn/server only.
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = process.cwd()
const pkg = JSON.parse(readFileSync("package.json", "utf8"))
const subpaths = Object.keys(pkg.exports).filter((key) => !key.includes("*") && key !== "./package.json").map((key) => (key === "." ? "latchkey" : `latchkey/${key.slice(2)}`))
subpaths.push("latchkey/providers/github", "latchkey/providers/resend")

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })
const WEBAUTHN_PEER = "@simplewebauthn/server"

/** How many packages an install holds, and their size on disk, for the log. */
function installed(app) {
  const packages = run("npm", ["ls", "--all", "--parseable"], app).trim().split("\n").length - 1
  const kilobytes = Number(run("du", ["-sk", join(app, "node_modules")], app).split("\t")[0])
  return `${packages} packages, ${(kilobytes / 1024).toFixed(1)} MB`
}

/**
 * An app with a passkey provider, as docs/passkeys.md sets one up, asks for sign-in options. With
 * the peer (`expect: "installed"`) the handler answers them; without it (`"missing"`), it answers
 * 500 and logs a MissingDependencyError that names the install line.
 */
const PASSKEY_APP = `import { createAuth, MissingDependencyError } from "latchkey"
import { memoryAdapter } from "latchkey/adapters"
import Passkey from "latchkey/providers/passkey"
import { webauthn } from "latchkey/webauthn"
const errors = []
const { handler } = createAuth({ providers: [Passkey({ allowSignUp: true })], adapter: memoryAdapter(), webauthn, secret: "smoke-secret-0123456789abcdef0123", trustHost: true, logger: { error: (error) => errors.push(error) } })
const response = await handler(new Request("http://localhost:3000/auth/webauthn-options/passkey?action=authenticate"))
const body = await response.json()
if (process.argv[2] === "missing") {
  const [error] = errors
  const named = error instanceof MissingDependencyError && error.code === "ERR_MISSING_DEPENDENCY" && error.install === "npm install ${WEBAUTHN_PEER}" && error.message.includes(error.install)
  if (response.status !== 500 || !named) throw new Error("expected a MissingDependencyError naming the install line, got HTTP " + response.status + " and " + errors.map(String).join("; "))
  console.log("without ${WEBAUTHN_PEER}: HTTP 500, logged " + error.name + " " + error.code + ": " + error.message)
} else {
  if (response.status !== 200 || typeof body.options?.challenge !== "string" || errors.length > 0) throw new Error("expected passkey options, got HTTP " + response.status + " " + JSON.stringify(body) + " " + errors.map(String).join("; "))
  console.log("with ${WEBAUTHN_PEER}: HTTP 200, passkey options with a challenge")
}
`
/** latchkey/passwords resolves #password-kdf from the installed package: a hash made there verifies. */
const PASSWORDS_CHECK = `const passwords = await import("latchkey/passwords")
const stored = await passwords.hashPassword("package smoke passphrase")
if (!(await passwords.verifyPassword("package smoke passphrase", stored)).valid) throw new Error("latchkey/passwords: the hash did not verify")
console.log("latchkey/passwords: backend", await passwords.passwordBackend(), stored.slice(0, 22))
`
const work = mkdtempSync(join(tmpdir(), "latchkey-pack-"))
try {
  const tarball = join(work, run("npm", ["pack", "--silent", "--pack-destination", work], root).trim().split("\n").pop())
  const app = join(work, "app")
  run("mkdir", ["-p", app])
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  // react: the optional peer latchkey/react imports (an app that uses that subpath has it).
  run("npm", ["install", "--silent", "--no-audit", "--no-fund", tarball, "@types/node@20", "react@19"], app)

  // Every subpath imports under Node with the node condition.
  const imports = subpaths.map((subpath, i) => `import * as m${i} from "${subpath}"; if (typeof m${i} !== "object") throw new Error("${subpath}")`).join("\n")
  writeFileSync(join(app, "imports.mjs"), `${imports}\nconst { cryptoBackend } = await import("latchkey/jwt")\nconsole.log("imported ${subpaths.length} subpaths; backend", cryptoBackend)\n${PASSWORDS_CHECK}`)
  // latchkey's own install does not carry the passkey library: only apps with passkeys add it.
  if (existsSync(join(app, "node_modules", WEBAUTHN_PEER))) throw new Error(`${WEBAUTHN_PEER} was installed with latchkey: it must be an optional peer`)
  console.log(`installed without ${WEBAUTHN_PEER}: ${installed(app)}`)
  process.stdout.write(run(process.execPath, ["imports.mjs"], app))
  writeFileSync(join(app, "passkeys.mjs"), PASSKEY_APP)
  process.stdout.write(run(process.execPath, ["passkeys.mjs", "missing"], app))

  // A consumer that uses the public types from each main subpath.
  writeFileSync(
    join(app, "consumer.ts"),
    `import { createAuth, type Session, LatchkeyError } from "latchkey"
import { encode, getToken, type JWT } from "latchkey/jwt"
import { resolveProviders, type OAuthProviderId, type GitHubProfile } from "latchkey/providers"
import GitHub from "latchkey/providers/github"
import { startSignIn } from "latchkey/oauth"
import { memoryAdapter, type Adapter } from "latchkey/adapters"
import { toWebHandler } from "latchkey/node"
import type { User, InferSession } from "latchkey/types"
import { createAuthClient } from "latchkey/client"
import { providerTokens } from "latchkey/provider-tokens"
import { webauthn } from "latchkey/webauthn"
import Passkey from "latchkey/providers/passkey"
import { createPasswordHasher, type PasswordVerification } from "latchkey/passwords"
export const verified: Promise<PasswordVerification> = createPasswordHasher({ policy: { minLength: 12 } }).verify("a password", "$scrypt$ln=16,r=8,p=2$c2FsdA$c2FsdA")
// The passkey types check without the optional peer installed.
export const passkeys = createAuth({ providers: [Passkey({ allowSignUp: true })], adapter: memoryAdapter(), webauthn, secret: "s" })
const id: OAuthProviderId = "github"
// The session callback's type reaches the browser client through the declarations, with no declare module.
const typed = createAuth({ providers: [], secret: "s", callbacks: { session: ({ session }) => ({ ...session, role: "admin" as const }) } })
export const role: Promise<"admin" | undefined> = createAuthClient<InferSession<typeof typed>>().getSession().then((session) => session?.role)
const auth = createAuth({ providers: [GitHub({ profile: (p: GitHubProfile): User => ({ id: String(p.id) }) })], secret: "s" })
const adapter: Adapter = memoryAdapter()
export const withTokens = createAuth({ providers: [GitHub], secret: "s", providerTokens: providerTokens({ refresh: { skew: 120 }, signOut: { federated: true } }) }).getAccessToken
export const checks = [id, auth.handler, adapter, encode, getToken, resolveProviders, startSignIn, toWebHandler, LatchkeyError]
export type Checked = [Session, JWT]
`
  )
  // A consumer with deliberate type errors: the messages must name the public types, from named
  // declaration files, never a hashed chunk's one-letter alias (`import(".../errors-Cn5ahcpT").a`).
  writeFileSync(
    join(app, "mistakes.ts"),
    `import { createAuth } from "latchkey"
import { resolveSignIn } from "latchkey/oauth"
import GitHub from "latchkey/providers/github"
interface Adapter { getUser(id: string): number }
declare const adapter: Adapter
createAuth({ providers: [GitHub], adapter })
resolveSignIn(adapter, { user: {}, account: { provider: "github", type: "oauth", providerAccountId: "1" }, provider: { id: "github" } })
const config = { providers: [GitHub], basePath: 42 }
createAuth(config)
`
  )
  for (const typescript of ["5", "6", "7"]) {
    run("npm", ["install", "--silent", "--no-audit", "--no-fund", `typescript@${typescript}`], app)
    for (const [module, resolution] of [["esnext", "bundler"], ["node16", "node16"]]) {
      const flags = ["--noEmit", "--strict", "--skipLibCheck", "false", "--target", "es2022", "--module", module, "--moduleResolution", resolution, "--types", "node"]
      run(join(app, "node_modules/.bin/tsc"), [...flags, "consumer.ts"], app)
      const mistakes = spawnSync(join(app, "node_modules/.bin/tsc"), [...flags, "--pretty", "false", "mistakes.ts"], { cwd: app, encoding: "utf8" })
      const printed = mistakes.stdout + mistakes.stderr
      const hashed = /import\("[^"]*-[\w-]{8}"|\)\.[a-zA-Z]\b|chunk-/
      if (mistakes.status === 0 || !/\bAdapter\b/.test(printed) || !/\bAuthConfig\b/.test(printed) || hashed.test(printed)) {
        throw new Error(`type errors should name Adapter and AuthConfig from named files; tsc printed:\n${printed}`)
      }
      console.log(`typescript ${typescript}, moduleResolution ${resolution}: ok, errors name Adapter and AuthConfig`)
    }
  }

  // An app with passkeys installs the peer, in the range latchkey declares, and its passkeys work.
  console.log(`before ${WEBAUTHN_PEER}: ${installed(app)}`)
  run("npm", ["install", "--silent", "--no-audit", "--no-fund", `${WEBAUTHN_PEER}@${pkg.peerDependencies[WEBAUTHN_PEER]}`], app)
  console.log(`installed with ${WEBAUTHN_PEER}: ${installed(app)}`)
  process.stdout.write(run(process.execPath, ["passkeys.mjs", "installed"], app))
} finally {
  rmSync(work, { recursive: true, force: true })
}
