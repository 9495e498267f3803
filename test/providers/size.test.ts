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

/**
 * The provider's import as a code-splitting bundler ships it: its entry chunk, and apart from it
 * the chunks it loads on demand (its mark, which only the sign-in page loads).
 */
async function bundle(path: string): Promise<{ entry: string; lazy: string[] }> {
  const result = await build({
    stdin: { contents: `export { default } from "./${path}"`, resolveDir: process.cwd(), loader: "ts", sourcefile: "entry.ts" },
    bundle: true,
    splitting: true,
    minify: true,
    format: "esm",
    platform: "neutral",
    conditions: ["worker", "browser"],
    // nodemailer is an optional peer, loaded on the first send, never part of the import.
    external: ["nodemailer"],
    outdir: "out",
    write: false,
    logLevel: "silent",
  })
  const [entry, ...lazy] = result.outputFiles.map((file) => file.text)
  return { entry: entry!, lazy }
}

describe("provider import size", () => {
  it("bundles every provider module: 116 OAuth/OIDC records and the rest, 128 in all (password included)", () => {
    expect(providerModules()).toHaveLength(128)
  })

  it.each(providerModules().map(({ name, path }) => [name, path] as const))("%s fits its budget with no crypto or flow code", async (name, path) => {
    const { entry, lazy } = await bundle(path)
    const size = gzipSync(entry, { level: 9 }).length
    const budget = path.includes("/email/") ? BUDGET.email : BUDGET.oauth
    expect(size, `${name} is ${size} bytes min+gzip`).toBeLessThanOrEqual(budget)
    for (const code of [entry, ...lazy]) for (const marker of FORBIDDEN) expect(code).not.toMatch(marker)
    // What loads on demand is the provider's mark and nothing else: one chunk holding one <svg>.
    expect(lazy.length).toBeLessThanOrEqual(1)
    for (const code of lazy) {
      expect(code).toContain("<svg ")
      expect(code).toMatch(/export\{\w+ as default\};\s*$/)
      expect(code).not.toMatch(/\bimport\b/)
    }
  })
})
