// Each provider module, bundled on its own the way an app's bundler would (minified, WebCrypto
// conditions), must fit its budget and carry no crypto or flow code.
import { gzipSync } from "node:zlib"
import { build } from "esbuild"
import { describe, expect, it } from "vitest"
import { providerModules } from "../../scripts/provider-catalog.mjs"

/** min+gzip budgets in bytes: OAuth/OIDC providers, and email providers (which carry the message). */
const BUDGET = { oauth: 1024, email: 2048 }
/** Markers of code that must never reach a provider import. */
const FORBIDDEN = [/crypto\.subtle/, /createCipheriv|createHmac/, /oauth4webapi/, /Auth\.js Generated Encryption Key/, /jwtVerify|createRemoteJWKSet/]

async function bundle(path: string): Promise<string> {
  const result = await build({
    stdin: { contents: `export { default } from "./${path}"`, resolveDir: process.cwd(), loader: "ts" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    conditions: ["worker", "browser"],
    // nodemailer is an optional peer, loaded on the first send, never part of the import.
    external: ["nodemailer"],
    write: false,
    logLevel: "silent",
  })
  return result.outputFiles[0]!.text
}

describe("provider import size", () => {
  it("bundles every provider module: 116 OAuth/OIDC records and the rest, 127 in all", () => {
    expect(providerModules()).toHaveLength(127)
  })

  it.each(providerModules().map(({ name, path }) => [name, path] as const))("%s fits its budget with no crypto or flow code", async (name, path) => {
    const code = await bundle(path)
    const size = gzipSync(code, { level: 9 }).length
    const budget = path.includes("/email/") ? BUDGET.email : BUDGET.oauth
    expect(size, `${name} is ${size} bytes min+gzip`).toBeLessThanOrEqual(budget)
    for (const marker of FORBIDDEN) expect(code).not.toMatch(marker)
  })
})
