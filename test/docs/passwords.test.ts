// docs/passwords.md's code, as an app copies it: every ts block typechecks against latchkey's
// source, and runs. The sign-in block signs a user in, re-hashes a legacy hash it finds, and answers
// null for an unknown address after one dummy derivation; the legacy block verifies real bcryptjs
// and @node-rs/argon2 hashes; the parameter blocks write what they say; the breached block refuses
// a listed password from a local range server; the toml line is the one the typed error names.
import { createHash } from "node:crypto"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import * as argon2 from "@node-rs/argon2"
import bcrypt from "bcryptjs"
import { describe, expect, it } from "vitest"
import { PasswordKdfUnavailableError } from "../../src/errors.js"
import * as passwordsModule from "../../src/passwords/index.js"
import { webcryptoKdf } from "../../src/passwords/kdf/webcrypto.js"
import { hasherOn, rejection } from "../passwords/support.js"
import * as root from "../../src/index.js"
import * as adaptersModule from "../../src/adapters/index.js"
import * as passwordProvider from "../../src/providers/password.js"
import { itTypechecks } from "../setup/typechecks.js"
import { runSnippet, snippet, snippetsOf, typecheck } from "./support.js"

const PAGE = "passwords.md"
const SIGN_IN = snippet(PAGE, "ts", "verifyDummyPassword(password)")
const FIRST_LINE = snippet(PAGE, "ts", "ln: 17, r: 8, p: 1")
const PBKDF2_EVERYWHERE = snippet(PAGE, "ts", 'algorithm: "pbkdf2-sha256"')
const LEGACY = snippet(PAGE, "ts", "legacy: [bcryptHashes, argon2Hashes]")
const BREACHED = snippet(PAGE, "ts", "haveIBeenPwned({")
const WRANGLER = snippet(PAGE, "toml", "nodejs_compat")
const ACCOUNTS = snippet(PAGE, "ts", 'signUpFields: [{ name: "company"')
const FORMAT = snippetsOf(PAGE).find((block) => block.lang === "" && block.code.includes("$scrypt$ln=<log2 N>"))!
const PASSWORD = "correct horse battery staple"
const STORAGE_HEADINGS = ["Storage", "The two adapter methods"]
const modules = { "latchkey/passwords": passwordsModule, bcryptjs: { default: bcrypt }, "@node-rs/argon2": argon2 }

describe("docs/passwords.md", () => {
  it("has no ts or toml block that this file does not exercise", () => {
    const claimed = [ACCOUNTS, SIGN_IN, FIRST_LINE, PBKDF2_EVERYWHERE, LEGACY, BREACHED, WRANGLER].map((block) => block.line)
    // The Storage section's blocks (the migration per database and ORM, the adapter methods) are test/docs/passwords-storage.test.ts's.
    const blocks = snippetsOf(PAGE).filter((block) => block.lang !== "" && !STORAGE_HEADINGS.includes(block.heading))
    expect(blocks.map((block) => block.line).filter((line) => !claimed.includes(line))).toEqual([])
  })

  itTypechecks("every ts block compiles as an app writes it", () => {
    const diagnostics = typecheck({
      "passwords-accounts.ts": `declare const mailer: { send(mail: { to: string; subject: string; text: string; html: string }): Promise<void> }\n${ACCOUNTS.code}\n`,
      "passwords-sign-in.ts": `declare const db: { findUserByEmail(email: string): Promise<{ id: string; passwordHash: string } | null>; setPasswordHash(id: string, hash: string): Promise<void> }\n${SIGN_IN.code}\n`,
      "passwords-first-line.ts": `${FIRST_LINE.code}\n`,
      "passwords-pbkdf2.ts": `${PBKDF2_EVERYWHERE.code}\n`,
      "passwords-legacy.ts": `${LEGACY.code}\n`,
      "passwords-breached.ts": `${BREACHED.code}\n`,
    })
    expect(diagnostics).toEqual([])
  }, 60_000)

  it("the sign-in block: signs in, re-hashes an older hash to today's, refuses a wrong password, and answers an unknown address after a dummy verify", async () => {
    const users = new Map([["ada@example.com", { id: "ada", passwordHash: await passwordsModule.hashPassword(PASSWORD) }]])
    const db = {
      findUserByEmail: async (email: string) => users.get(email) ?? null,
      setPasswordHash: async (id: string, hash: string) => void (users.get(`${id}@example.com`)!.passwordHash = hash),
    }
    const { signIn } = await runSnippet(SIGN_IN.code, modules, { db })
    expect(await signIn("ada@example.com", PASSWORD)).toMatchObject({ id: "ada" })
    expect(await signIn("ada@example.com", "not ada's password at all")).toBeNull()
    expect(await signIn("nobody@example.com", PASSWORD)).toBeNull()
    // An older hash (lower-cost scrypt) is replaced by today's at the next sign-in.
    users.get("ada@example.com")!.passwordHash = await passwordsModule.hashPassword(PASSWORD, { allowWeakParameters: true, scrypt: { ln: 10 } })
    expect(await signIn("ada@example.com", PASSWORD)).toMatchObject({ id: "ada" })
    expect(users.get("ada@example.com")!.passwordHash).toMatch(/^\$scrypt\$ln=16,r=8,p=2\$/)
  }, 60_000)

  it("the format block names the strings latchkey writes", async () => {
    expect(FORMAT.code).toContain("$pbkdf2-sha256$i=<iterations>$<salt>$<hash>")
    expect(await hasherOn(webcryptoKdf, { allowWeakParameters: true, pbkdf2: { iterations: 1000 } }).hash(PASSWORD)).toMatch(/^\$pbkdf2-sha256\$i=1000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
  })

  it("the parameter blocks hash with OWASP's first line, and with PBKDF2 everywhere", async () => {
    const { passwords: firstLine } = await runSnippet(FIRST_LINE.code, modules)
    const stored = await firstLine.hash(PASSWORD)
    expect(stored).toMatch(/^\$scrypt\$ln=17,r=8,p=1\$/)
    expect(await passwordsModule.verifyPassword(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
    const { passwords: pbkdf2 } = await runSnippet(PBKDF2_EVERYWHERE.code, modules)
    const portable = await pbkdf2.hash(PASSWORD)
    expect(portable).toMatch(/^\$pbkdf2-sha256\$i=600000\$/)
    expect(await pbkdf2.verify(PASSWORD, portable)).toEqual({ valid: true, needsRehash: false })
    expect((await hasherOn(webcryptoKdf, {}).verify(PASSWORD, portable)).valid).toBe(true)
  }, 60_000)

  it("the legacy block verifies real bcryptjs and @node-rs/argon2 hashes and flags them for rehash", async () => {
    const { passwords } = await runSnippet(LEGACY.code, modules)
    for (const stored of [await bcrypt.hash(PASSWORD, 10), await argon2.hash(PASSWORD)]) {
      expect(await passwords.verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
      expect(await passwords.verify("another password entirely", stored)).toEqual({ valid: false, needsRehash: false })
    }
    expect((await rejection(passwords.verify(PASSWORD, (await bcrypt.hash(PASSWORD, 4)).slice(0, 30)))).code).toBe("ERR_INVALID_PASSWORD_HASH")
  }, 30_000)

  it("the breached block refuses a password a range server lists", async () => {
    const listed = createHash("sha1").update(PASSWORD).digest("hex").toUpperCase()
    const server = createServer((request, response) => {
      const prefix = request.url!.slice(-5)
      response.end(listed.startsWith(prefix) ? `${listed.slice(5)}:3861493\r\n00000000000000000000000000000000000:0` : "")
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    try {
      const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`
      const local = { ...passwordsModule, haveIBeenPwned: (options: passwordsModule.PwnedPasswordsOptions) => passwordsModule.haveIBeenPwned({ ...options, endpoint }) }
      const { passwords } = await runSnippet(BREACHED.code, { "latchkey/passwords": local })
      expect(await rejection(passwords.hash(PASSWORD))).toMatchObject({ code: "ERR_PASSWORD_POLICY", reason: "breached" })
      expect(await passwords.check("violet staircase under the moon")).toBe("violet staircase under the moon")
    } finally {
      await new Promise((resolve) => server.close(resolve))
    }
  })

  it("the wrangler line is the fix the typed error names", async () => {
    expect(WRANGLER.code.trim()).toBe('compatibility_flags = ["nodejs_compat"]')
    const error = await rejection(hasherOn(webcryptoKdf, {}).verify(PASSWORD, await passwordsModule.hashPassword(PASSWORD)))
    expect(error).toBeInstanceOf(PasswordKdfUnavailableError)
    expect(error.fix).toContain('"nodejs_compat" to compatibility_flags')
  }, 30_000)

  it("the accounts block: signs up with the app's field, mails the link, verifies, and signs in", async () => {
    const sent: { to: string; text: string }[] = []
    const mailer = { send: async (mail: { to: string; text: string }) => void sent.push(mail) }
    const previous = { secret: process.env.AUTH_SECRET, url: process.env.AUTH_URL }
    process.env.AUTH_SECRET = "docs-passwords-accounts-secret-0123456789"
    process.env.AUTH_URL = "https://app.example.com/auth"
    try {
      const app = await runSnippet(ACCOUNTS.code, { latchkey: root, "latchkey/adapters": adaptersModule, "latchkey/providers/password": passwordProvider, "latchkey/passwords": passwordsModule }, { mailer })
      let cookie = ""
      const call = async (path: string, init: RequestInit = {}) => {
        const response: Response = await app.handler(new Request(`https://app.example.com${path}`, { ...init, headers: { ...(init.headers as object), cookie } }))
        const set = response.headers.getSetCookie().map((line) => line.split(";")[0]!)
        if (set.length > 0) cookie = [...cookie.split("; ").filter((pair) => pair && !set.some((line) => line.split("=")[0] === pair.split("=")[0])), ...set].join("; ")
        return response
      }
      const form = async (path: string, fields: Record<string, string>) => {
        const { csrfToken } = (await (await call("/auth/csrf")).json()) as { csrfToken: string }
        return call(path, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ csrfToken, ...fields }).toString() })
      }
      const signUp = await form("/auth/password/sign-up", { email: "ada@example.com", password: PASSWORD, name: "Ada", company: "Analytical Engines" })
      expect(signUp.headers.get("location")).toBe("https://app.example.com/auth/verify-request?provider=password&kind=verify-email")
      const link = new URL(/https:\S+/.exec(sent[0]!.text)![0])
      expect(sent[0]!.to).toBe("ada@example.com")
      await call(`${link.pathname}${link.search}`)
      const session = (await (await call("/auth/session")).json()) as { user: { email: string; name: string } }
      expect(session.user).toMatchObject({ email: "ada@example.com", name: "Ada" })
      const signIn = await form("/auth/callback/password", { email: "ada@example.com", password: PASSWORD })
      expect(signIn.headers.get("location")).toBe("https://app.example.com/")
    } finally {
      process.env.AUTH_SECRET = previous.secret
      process.env.AUTH_URL = previous.url
      if (previous.secret === undefined) delete process.env.AUTH_SECRET
      if (previous.url === undefined) delete process.env.AUTH_URL
    }
  }, 60_000)
})
