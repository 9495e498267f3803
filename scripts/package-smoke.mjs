// The packed-tarball smoke test: pack latchkey, install the tarball into a fresh project, import
// every subpath from ESM under Node, and typecheck a consumer with moduleResolution bundler and
// node16 on TypeScript 5 and 6. It uses the registry for typescript only.
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

const root = process.cwd()
const pkg = JSON.parse(readFileSync("package.json", "utf8"))
const subpaths = Object.keys(pkg.exports).filter((key) => !key.includes("*") && key !== "./package.json").map((key) => (key === "." ? "latchkey" : `latchkey/${key.slice(2)}`))
subpaths.push("latchkey/providers/github", "latchkey/providers/resend")

const run = (cmd, args, cwd) => execFileSync(cmd, args, { cwd, stdio: ["ignore", "pipe", "inherit"], encoding: "utf8" })
const work = mkdtempSync(join(tmpdir(), "latchkey-pack-"))
try {
  const tarball = join(work, run("npm", ["pack", "--silent", "--pack-destination", work], root).trim().split("\n").pop())
  const app = join(work, "app")
  run("mkdir", ["-p", app])
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }))
  run("npm", ["install", "--silent", "--no-audit", "--no-fund", tarball, "@types/node@20"], app)

  // Every subpath imports under Node with the node condition.
  const imports = subpaths.map((subpath, i) => `import * as m${i} from "${subpath}"; if (typeof m${i} !== "object") throw new Error("${subpath}")`).join("\n")
  writeFileSync(join(app, "imports.mjs"), `${imports}\nconst { cryptoBackend } = await import("latchkey/jwt")\nconsole.log("imported ${subpaths.length} subpaths; backend", cryptoBackend)\n`)
  process.stdout.write(run(process.execPath, ["imports.mjs"], app))

  // A consumer that uses the public types from each main subpath.
  writeFileSync(
    join(app, "consumer.ts"),
    `import { createAuth, type Session, LatchkeyError } from "latchkey"
import { encode, getToken, type JWT } from "latchkey/jwt"
import { resolveProviders, type OAuthProviderId, type GitHubProfile } from "latchkey/providers"
import GitHub from "latchkey/providers/github"
import { startSignIn, memoryAdapter, type Adapter } from "latchkey/oauth"
import { toWebHandler } from "latchkey/node"
import type { User } from "latchkey/types"
const id: OAuthProviderId = "github"
const auth = createAuth({ providers: [GitHub({ profile: (p: GitHubProfile): User => ({ id: String(p.id) }) })], secret: "s" })
const adapter: Adapter = memoryAdapter()
export const checks = [id, auth.handler, adapter, encode, getToken, resolveProviders, startSignIn, toWebHandler, LatchkeyError]
export type Checked = [Session, JWT]
`
  )
  for (const typescript of ["5", "6"]) {
    run("npm", ["install", "--silent", "--no-audit", "--no-fund", `typescript@${typescript}`], app)
    for (const [module, resolution] of [["esnext", "bundler"], ["node16", "node16"]]) {
      run(join(app, "node_modules/.bin/tsc"), ["--noEmit", "--strict", "--skipLibCheck", "false", "--target", "es2022", "--module", module, "--moduleResolution", resolution, "--types", "node", "consumer.ts"], app)
      console.log(`typescript ${typescript}, moduleResolution ${resolution}: ok`)
    }
  }
} finally {
  rmSync(work, { recursive: true, force: true })
}
