// Every page that tells an app how to replace its secret without signing everyone out tells it the
// order createAuth reads secrets in: the newest goes in the highest AUTH_SECRET_<n>, the old one stays
// in AUTH_SECRET. The reverse (new in AUTH_SECRET, old in AUTH_SECRET_1) makes the old secret the one
// that seals, and a short old one is refused at start-up: the outside review followed the guide's
// advice for a short Auth.js secret and got ERR_WEAK_SECRET. The advice is then followed as written.
import { readdirSync, readFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { encode } from "../../src/jwt/encode.js"
import Credentials from "../../src/providers/credentials.js"

const ROOT = resolve(import.meta.dirname, "../..")
const PAGES = ["README.md", "SECURITY.md", ...readdirSync(join(ROOT, "docs"), { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".md") && !file.startsWith("api")).map((file) => join("docs", file))]

/** Each sentence of a page that puts a new secret into a named variable, with that variable. */
function rotationAdvice(page: string): { page: string; sentence: string; variable: string }[] {
  const text = readFileSync(join(ROOT, page), "utf8").replace(/\s+/g, " ")
  const found = []
  for (const sentence of text.split(/(?<=\.) /)) {
    const match = /put (?:a |the )?new (?:one|secret)[^.]*? in `(AUTH_SECRET(?:_\d)?)`/.exec(sentence)
    if (match) found.push({ page, sentence, variable: match[1]! })
  }
  return found
}

describe("the docs' advice for replacing a secret", () => {
  const advice = PAGES.flatMap(rotationAdvice)

  it("is found on the pages that give it", () => {
    expect(new Set(advice.map(({ page }) => page))).toEqual(new Set(["docs/migrating-from-authjs.md", "docs/troubleshooting.md"]))
  })

  it("puts the new secret in AUTH_SECRET_1, never in AUTH_SECRET", () => {
    expect(advice.filter(({ variable }) => variable !== "AUTH_SECRET_1")).toEqual([])
  })

  it("followed for a short Auth.js secret: createAuth starts, and a cookie the old secret sealed still opens", async () => {
    const old = "short-authjs-secret"
    const warnings: string[] = []
    const { auth } = createAuth({ providers: [Credentials({ credentials: {}, authorize: () => null })], env: { AUTH_URL: "https://app.example.com/auth", AUTH_SECRET: old, AUTH_SECRET_1: "a-new-secret-from-npx-latchkey-secret-0123" }, logger: { warn: (code) => void warnings.push(code) } })
    const sealed = await encode({ token: { sub: "ada", name: "Ada", exp: Math.floor(Date.now() / 1000) + 3600 }, secret: old, salt: "__Secure-authjs.session-token" })
    const session = await auth(new Request("https://app.example.com/", { headers: { cookie: `__Secure-authjs.session-token=${sealed}` } }))
    expect(session?.user?.name).toBe("Ada")
    expect(warnings).toContain("WEAK_SECRET")
  })
})
