// Attacks on the password routes, through the handler: account enumeration by answer and by work,
// a password sign-up joining someone else's account, a half-written sign-up, forged POSTs without
// the CSRF token, floods past the rate limits, the hash leaking with a user, and secrets in logs.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { AdapterUser } from "../../src/adapters/adapter.js"
import { handlePasswordRequest } from "../../src/passwords/handle.js"
import { createPasswordHasher, hashPassword } from "../../src/passwords/index.js"
import type { PasswordHasher } from "../../src/passwords/hasher.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { GOOD, OTHER, passwordApp, shape, signedUpUser } from "./flows-support.js"
import { CHEAP } from "./support.js"

/** The cheap hasher, counting what the routes ask of it. */
function countingPlugIn() {
  const inner = createPasswordHasher(CHEAP)
  const calls = { hash: 0, verify: 0, verifyDummy: 0, rehash: 0 }
  const hasher: PasswordHasher = {
    ...inner,
    policy: inner.policy,
    hash: (password) => (calls.hash++, inner.hash(password)),
    verify: (password, stored) => (calls.verify++, inner.verify(password, stored)),
    verifyDummy: (password) => (calls.verifyDummy++, inner.verifyDummy(password)),
    rehash: (password) => (calls.rehash++, inner.rehash(password)),
  }
  const reset = () => Object.assign(calls, { hash: 0, verify: 0, verifyDummy: 0, rehash: 0 })
  return { calls, reset, plugIn: { hasher, handle: (host: never, request: never) => handlePasswordRequest(hasher, host, request) } }
}

describe.each(["jwt", "database"] as const)("password attacks with %s sessions", (strategy) => {
  it("answers sign-in, sign-up and forgot byte-identically for a known and an unknown address, after the same hashing", async () => {
    const counting = countingPlugIn()
    const app = passwordApp({ strategy, passwords: counting.plugIn as never })
    await signedUpUser(app, "ada@example.com")
    for (const script of [false, true]) {
      counting.reset()
      const known = await shape(await app.browser().signIn("ada@example.com", OTHER, { script }))
      const knownWork = { ...counting.calls }
      counting.reset()
      const unknown = await shape(await app.browser().signIn("nobody@example.com", OTHER, { script }))
      expect(unknown).toEqual(known)
      expect(knownWork).toEqual({ hash: 0, verify: 1, verifyDummy: 0, rehash: 0 })
      expect(counting.calls).toEqual({ hash: 0, verify: 0, verifyDummy: 1, rehash: 0 })

      counting.reset()
      const taken = await shape(await app.browser().signUp({ email: "ada@example.com", password: OTHER, name: "Eve" }, { script }))
      const takenWork = { ...counting.calls }
      counting.reset()
      const fresh = await shape(await app.browser().signUp({ email: `new-${script}@example.com`, password: OTHER, name: "Eve" }, { script }))
      expect(taken).toEqual(fresh)
      expect(takenWork).toEqual(counting.calls)

      const mailsBefore = app.mailbox.length
      counting.reset()
      const forgotKnown = await shape(await app.browser().post("/auth/password/forgot", { email: "ada@example.com" }, { script }))
      expect(app.mailbox.length).toBe(mailsBefore + 1)
      const forgotUnknown = await shape(await app.browser().post("/auth/password/forgot", { email: "nobody@example.com" }, { script }))
      expect(forgotUnknown).toEqual(forgotKnown)
      expect(app.mailbox.length).toBe(mailsBefore + 1)
      // One derivation each: the known address's as well as the unknown one's.
      expect(counting.calls.verifyDummy).toBe(2)
    }
    // The owner of the taken address was told, and has still one user and one password.
    expect(app.mailTo("ada@example.com", "sign-up-notice")).toBeDefined()
    expect([...app.adapter.users.values()].filter((user) => user.email === "ada@example.com")).toHaveLength(1)
    expect((await app.browser().signIn("ada@example.com", OTHER, { script: true })).status).toBe(401)
  })

  it("never joins a password sign-up to an OAuth user, verified or not, and an OAuth-only user cannot sign in by password", async () => {
    for (const requireEmailVerification of [true, false]) {
      const app = passwordApp({ strategy, provider: { requireEmailVerification } })
      const victim = await app.adapter.createUser({ email: "victim@example.com", name: "Victim", emailVerified: new Date() })
      await app.adapter.linkAccount({ userId: victim.id, provider: "github", type: "oauth", providerAccountId: "42" })
      const attacker = app.browser()
      await attacker.signUp({ email: "victim@example.com", password: OTHER })
      expect(await attacker.session()).toBeNull()
      expect(await app.adapter.getUserPassword(victim.id)).toBeNull()
      expect(app.adapter.users.size).toBe(1)
      const signIn = await app.browser().signIn("victim@example.com", OTHER, { script: true })
      expect(await signIn.json()).toEqual({ error: "CredentialsSignin" })
      expect(app.mailTo("victim@example.com", "sign-up-notice")).toBeDefined()
    }
  })

  it("with linking allowed, adds a password to an OAuth user only through a link mailed to the owner", async () => {
    const app = passwordApp({ strategy, provider: { allowLinkingToExistingUser: true } })
    const owner = await app.adapter.createUser({ email: "owner@example.com", emailVerified: new Date() })
    const attacker = app.browser()
    await attacker.signUp({ email: "owner@example.com", password: OTHER })
    expect(await attacker.session()).toBeNull()
    expect(await app.adapter.getUserPassword(owner.id)).toBeNull()
    expect((await app.browser().signIn("owner@example.com", OTHER, { script: true })).status).toBe(401)
    // The owner follows the link and sets a password of their own.
    const link = new URL(app.mailTo("owner@example.com", "reset")!.url!)
    const here = app.browser()
    const set = await here.post("/auth/password/reset", { token: link.searchParams.get("token")!, email: "owner@example.com", password: GOOD }, { script: true })
    expect(set.status).toBe(200)
    expect((await app.browser().signIn("owner@example.com", GOOD, { script: true })).status).toBe(200)
    expect(app.adapter.users.size).toBe(1)
  })

  it("leaves no user behind when the hash cannot be stored", async () => {
    const adapter = memoryAdapter()
    adapter.setUserPassword = () => {
      throw new Error("the password column is missing")
    }
    const app = passwordApp({ strategy, adapter })
    const answer = await app.browser().signUp({ email: "ada@example.com", password: GOOD }, { script: true })
    expect(answer.status).toBe(500)
    expect(adapter.users.size).toBe(0)
    expect(app.mailbox).toEqual([])
  })

  it("refuses every password POST without this browser's CSRF token, changing nothing", async () => {
    const app = passwordApp({ strategy, provider: { requireEmailVerification: false } })
    const ada = await signedUpUser(app, "ada@example.com")
    const routes: [string, Record<string, string>][] = [
      ["/auth/callback/password", { email: "ada@example.com", password: GOOD }],
      ["/auth/password/sign-up", { email: "eve@example.com", password: GOOD }],
      ["/auth/password/forgot", { email: "ada@example.com" }],
      ["/auth/password/reset", { token: "x", email: "ada@example.com", password: OTHER }],
      ["/auth/password/change", { currentPassword: GOOD, newPassword: OTHER }],
      ["/auth/password/change-email", { newEmail: "eve@example.com", password: GOOD }],
    ]
    for (const [path, fields] of routes) {
      const forged = await ada.post(path, { ...fields, csrfToken: "forged" }, { noCsrf: true, script: true })
      expect(forged.status, path).toBe(403)
      expect(await forged.json()).toEqual({ error: "MissingCSRF" })
      const form = await app.browser().post(path, fields, { noCsrf: true })
      expect(form.headers.get("location"), path).toContain("error=MissingCSRF")
    }
    expect(app.adapter.users.size).toBe(1)
    expect(app.mailbox.filter((mail) => mail.kind !== "verify-email")).toEqual([])
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
  })

  it("answers the attempt past each route's limit 429 with Retry-After", async () => {
    const limits = { client: { limit: 3, windowSeconds: 600 }, identifier: false as const }
    const app = passwordApp({
      strategy,
      config: {
        rateLimits: rateLimits({ routes: { "password-sign-in": limits, "password-sign-up": limits, "password-forgot": limits, "password-reset": limits, "password-change": limits } }),
        trustedProxy: "cloudflare",
      },
    })
    const routes: [string, Record<string, string>][] = [
      ["/auth/callback/password", { email: "ada@example.com", password: OTHER }],
      ["/auth/password/sign-up", { email: "eve@example.com", password: "short" }],
      ["/auth/password/forgot", { email: "ada@example.com" }],
      ["/auth/password/reset", { token: "x", email: "ada@example.com", password: OTHER }],
      ["/auth/password/change", { currentPassword: GOOD, newPassword: OTHER }],
    ]
    for (const [index, [path, fields]] of routes.entries()) {
      const headers = { "cf-connecting-ip": `203.0.113.${index + 1}` }
      for (let attempt = 1; attempt <= 3; attempt++) expect((await app.browser().post(path, fields, { script: true, headers })).status, path).not.toBe(429)
      const refused = await app.browser().post(path, fields, { script: true, headers })
      expect(refused.status, path).toBe(429)
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
      expect(await refused.json()).toMatchObject({ error: "RateLimited" })
    }
  })

  it("a change of address behind a captcha on both its routes asks the service once: single-use tokens still pass", async () => {
    // Turnstile, hCaptcha and reCAPTCHA accept a token once; a second siteverify of it fails.
    const spent = new Set<string>()
    const verify = async (token: string) => token.startsWith("human-") && !spent.has(token) && spent.add(token).size > 0
    const app = passwordApp({ strategy, provider: { requireEmailVerification: false }, config: { rateLimits: rateLimits({ captcha: { routes: ["password-change", "password-change-email"], verify } }) } })
    const ada = await signedUpUser(app, "ada@example.com")
    const moved = await ada.post("/auth/password/change-email", { newEmail: "ada@example.org", password: GOOD, captchaToken: "human-1" }, { script: true })
    expect(moved.status).toBe(200)
    expect(spent).toEqual(new Set(["human-1"]))
    // The token is spent: the same one again is refused at the first route's check.
    const again = await ada.post("/auth/password/change-email", { newEmail: "ada@example.net", password: GOOD, captchaToken: "human-1" }, { script: true })
    expect(again.status).toBe(403)
    expect(await again.json()).toEqual({ error: "CaptchaFailed" })
  })

  it("never hands a user's password column to callbacks, events, sessions or the client", async () => {
    // An adapter that reads users with `select *`, as @auth/pg-adapter does.
    const base = memoryAdapter()
    const hashes = new Map<string, string>()
    const withColumn = (user: AdapterUser | null | undefined) => (user ? { ...user, password: hashes.get(user.id) ?? null } : null)
    const adapter = {
      ...base,
      getUser: async (id: string) => withColumn(await base.getUser(id)),
      getUserByEmail: async (email: string) => withColumn(await base.getUserByEmail(email)),
      getSessionAndUser: async (token: string) => {
        const found = await base.getSessionAndUser(token)
        return found ? { ...found, user: withColumn(found.user)! } : null
      },
      updateUser: async (user: Partial<AdapterUser> & { id: string }) => withColumn(await base.updateUser(user))!,
      getUserPassword: (id: string) => hashes.get(id) ?? null,
      setUserPassword: (id: string, hash: string | null) => void (hash === null ? hashes.delete(id) : hashes.set(id, hash)),
    }
    const seen: unknown[] = []
    const app = passwordApp({
      strategy,
      adapter: adapter as never,
      provider: { requireEmailVerification: false },
      config: {
        callbacks: {
          signIn: ({ user }) => (seen.push(user), true),
          jwt: ({ token, user }) => (seen.push(user), token),
          session: ({ session, user }) => (seen.push(user), session),
        },
        events: { signIn: ({ user }) => void seen.push(user), createUser: ({ user }) => void seen.push(user) },
      },
    })
    const browser = app.browser()
    await browser.signUp({ email: "ada@example.com", password: GOOD })
    await app.browser().signIn("ada@example.com", GOOD)
    const session = await browser.session()
    expect(session?.user?.email).toBe("ada@example.com")
    expect(hashes.size).toBe(1)
    expect(JSON.stringify([seen, session])).not.toContain("password")
    expect(JSON.stringify([seen, session])).not.toContain("$scrypt$")
  })

  it("keeps passwords, hashes and tokens out of errors and logs", async () => {
    const app = passwordApp({ strategy, config: { debug: true } })
    const ada = await signedUpUser(app, "ada@example.com")
    await app.browser().signIn("ada@example.com", "a wrong guess of a password")
    await app.browser().post("/auth/password/forgot", { email: "ada@example.com" })
    const link = app.mailTo("ada@example.com", "reset")!
    const token = new URL(link.url!).searchParams.get("token")!
    await app.browser().post("/auth/password/reset", { token, email: "ada@example.com", password: OTHER })
    await app.browser().post("/auth/password/reset", { token, email: "ada@example.com", password: "replayed passphrase attempt" })
    await ada.post("/auth/password/change", { currentPassword: "wrong current password", newPassword: GOOD })
    // A mailer that fails with the mail in its message.
    const failing = passwordApp({ strategy, provider: { sendEmail: (mail) => Promise.reject(new Error(`SMTP refused ${mail.text}`)) } })
    await failing.browser().signUp({ email: "bob@example.com", password: GOOD })
    const hash = (await app.adapter.getUserPassword([...app.adapter.users.values()][0]!.id))!
    const logged = [...app.logs, ...failing.logs, ...[...app.errors, ...failing.errors].map((error) => `${(error as Error).message} ${(error as Error).stack}`)].join("\n")
    expect(failing.errors.length).toBeGreaterThan(0)
    for (const secret of [GOOD, OTHER, "a wrong guess", "wrong current password", "replayed passphrase", token, token.split(".")[0]!, hash, hash.split("$").pop()!, "SMTP refused"]) {
      expect(logged, secret).not.toContain(secret)
    }
  })

  it("re-hashes a legacy hash and an older-parameter hash at the next sign-in", async () => {
    const legacy = [{ id: "plain-sha", matches: (stored: string) => stored.startsWith("legacy:"), verify: (password: string, stored: string) => stored === `legacy:${password}` }]
    const { passwordsWith } = await import("../../src/passwords/index.js")
    const app = passwordApp({ strategy, passwords: passwordsWith({ ...CHEAP, legacy }) })
    const old = await app.adapter.createUser({ email: "old@example.com", emailVerified: new Date() })
    await app.adapter.setUserPassword(old.id, "legacy:short8ch")
    const weaker = await app.adapter.createUser({ email: "weaker@example.com", emailVerified: new Date() })
    await app.adapter.setUserPassword(weaker.id, await hashPassword(GOOD, { ...CHEAP, scrypt: { ln: 9, r: 8, p: 1 } }))
    expect((await app.browser().signIn("old@example.com", "short8ch", { script: true })).status).toBe(200)
    expect(await app.adapter.getUserPassword(old.id)).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/)
    expect((await app.browser().signIn("old@example.com", "short8ch", { script: true })).status).toBe(200)
    expect((await app.browser().signIn("weaker@example.com", GOOD, { script: true })).status).toBe(200)
    expect(await app.adapter.getUserPassword(weaker.id)).toMatch(/^\$scrypt\$ln=10,r=8,p=1\$/)
    expect(app.errors).toEqual([])
  })

  it("reads a look-alike address (full-width letters, capitals, spaces) as the same account, and refuses an invisible character", async () => {
    const app = passwordApp({ strategy })
    await signedUpUser(app, "ada@example.com")
    expect((await app.browser().signIn(" ＡＤＡ@Example.com ", GOOD, { script: true })).status).toBe(200)
    await app.browser().signUp({ email: "ａｄａ@example.com", password: OTHER })
    expect(app.adapter.users.size).toBe(1)
    expect(app.mailTo("ada@example.com", "sign-up-notice")).toBeDefined()
    const invisible = await app.browser().signUp({ email: "ada\u200b@example.com", password: OTHER }, { script: true })
    expect(await invisible.json()).toEqual({ error: "InvalidRequest" })
    expect(app.adapter.users.size).toBe(1)
  })
})
