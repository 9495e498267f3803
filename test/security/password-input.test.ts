// Hostile input to the password routes (issue #28): a 1 MB password and a 1 MB address (refused
// before any key derivation: the derivations are counted at node:crypto, wrapped here and passed
// through), spellings of one address that must stay one account (case, fullwidth, composed and
// decomposed accents) and look-alikes that are other people's addresses and must never reach an
// existing account (a Cyrillic letter in the domain, a +tag, a dot), an unverified sign-up against
// a verified OAuth user's address, and a change of address to one another user has.
import { beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter } from "../../src/adapters/adapter.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { account, errorOf, linksIn, linkTo, passwordApp, pathOf, PW, reset, resetLink, signIn, STRATEGIES, type PasswordApp } from "./password-support.js"

const kdf = vi.hoisted(() => ({ calls: 0 }))
vi.mock("node:crypto", async (importOriginal) => (await import("./counting-kdf.js")).countingCrypto(await importOriginal(), kdf))

const MEGABYTE = 1024 * 1024
let userCount = 0
const fresh = (name: string) => `${name}${++userCount}@example.com`
const opens = async (app: PasswordApp, email: string, password: string) => (await signIn(app, email, password)).response.status === 200

/** How many users the adapter holds under exactly this address. */
async function userIdOf(app: PasswordApp, email: string): Promise<string | undefined> {
  return (await app.adapter.getUserByEmail!(email))?.id
}

for (const strategy of STRATEGIES) {
  describe(`oversized input (${strategy} sessions)`, () => {
    let app: PasswordApp
    let ada: string
    let signedIn: Awaited<ReturnType<typeof account>>
    beforeAll(async () => {
      app = passwordApp({ strategy })
      ada = fresh("ada")
      signedIn = await account(app, ada, PW.ada)
    }, 30_000)

    it("a 1 MB password is refused on every route with no key derivation", async () => {
      const huge = "p".repeat(MEGABYTE)
      const link = await resetLink(app, ada)
      const before = kdf.calls
      const answers = {
        "sign-up": await app.browser().post("/auth/password/sign-up", { email: fresh("huge"), password: huge }),
        "sign-in (known)": await app.browser().post("/auth/callback/password", { email: ada, password: huge }),
        "sign-in (unknown)": await app.browser().post("/auth/callback/password", { email: fresh("nobody"), password: huge }),
        reset: await reset(app.browser(), link, huge),
        change: await signedIn.post("/auth/password/change", { currentPassword: PW.ada, newPassword: huge }),
        "change (current)": await signedIn.post("/auth/password/change", { currentPassword: huge, newPassword: PW.fresh }),
        "change-email": await signedIn.post("/auth/password/change-email", { newEmail: fresh("moved"), password: huge }),
      }
      expect(kdf.calls - before).toBe(0)
      for (const [route, answer] of Object.entries(answers)) expect({ route, status: answer.status >= 400 && answer.status < 500 }).toEqual({ route, status: true })
      // The sign-in refusals still say nothing about the address.
      expect(await errorOf(answers["sign-in (known)"])).toBe(await errorOf(answers["sign-in (unknown)"]))
      expect(await opens(app, ada, PW.ada)).toBe(true)
    })

    it("a 1 MB address is refused with no derivation, no mail and no user", async () => {
      const huge = `${"a".repeat(MEGABYTE)}@example.com`
      const mails = app.mailbox.length
      const before = kdf.calls
      for (const [path, fields] of [
        ["/auth/password/sign-up", { email: huge, password: PW.eve }],
        ["/auth/callback/password", { email: huge, password: PW.eve }],
        ["/auth/password/forgot", { email: huge }],
      ] as const) {
        const answer = await app.browser().post(path, fields)
        expect({ path, ok: answer.status < 500 }).toEqual({ path, ok: true })
      }
      await signedIn.post("/auth/password/change-email", { newEmail: huge, password: PW.ada })
      // The change-email attempt may verify the password (one derivation); nothing else may derive.
      expect(kdf.calls - before).toBeLessThanOrEqual(1)
      expect(app.mailbox.slice(mails)).toEqual([])
      expect(await userIdOf(app, huge.toLowerCase())).toBeUndefined()
    })

    // A mutation probe: without the bound on a link token's user part, a forged token named a user id
    // of any length, and each link route handed it to the adapter (a look-up per request, or a 500
    // from a column with a length limit) before the stored hash refused it.
    it("a link token forged to name a 4 kB user id reaches no adapter call on any link route", async () => {
      const oversized: string[] = []
      const base = memoryAdapter()
      const adapter = new Proxy(base, {
        get(target, name) {
          const value = Reflect.get(target, name)
          if (typeof value !== "function") return value
          return (...args: unknown[]) => {
            if (JSON.stringify(args).length > 2048) oversized.push(String(name))
            return value.apply(target, args)
          }
        },
      }) as Adapter
      const forgedApp = passwordApp({ strategy, adapter })
      const victim = fresh("ada")
      const browser = await account(forgedApp, victim, PW.ada)
      const token = `${"A".repeat(43)}.${Buffer.from("u".repeat(3000)).toString("base64url")}`
      const query = `token=${token}&email=${encodeURIComponent(victim)}`
      const answers = [
        await forgedApp.browser().post("/auth/password/verify-email", { token, email: victim, password: PW.ada }),
        await forgedApp.browser().post("/auth/password/reset", { token, email: victim, password: PW.fresh }),
        await forgedApp.browser().request(`/auth/password/verify-email?${query}`),
        await browser.request(`/auth/password/confirm-email?${query}`),
      ]
      expect(answers.map((answer) => answer.status < 500)).toEqual([true, true, true, true])
      expect(oversized).toEqual([])
      expect(await opens(forgedApp, victim, PW.fresh)).toBe(false)
    })
  })

  describe(`one person, one account; look-alikes reach no one else (${strategy} sessions)`, () => {
    let app: PasswordApp
    beforeAll(() => {
      app = passwordApp({ strategy })
    })

    it("case, spaces, fullwidth letters and a decomposed accent are the same address: no second account", async () => {
      const owner = await account(app, "josé@example.com", PW.ada)
      const ownerId = (await owner.session())?.user
      expect(ownerId).toBeTruthy()
      const ownerUserId = await userIdOf(app, "josé@example.com")
      for (const spelling of ["JOSÉ@example.com", " josé@Example.COM ", "ｊｏｓé@ｅｘａｍｐｌｅ.com", "jose\u0301@example.com"]) {
        const mails = app.mailbox.length
        const answer = await app.browser().post("/auth/password/sign-up", { email: spelling, password: PW.eve })
        expect(answer.status).toBe(200)
        // No verification link for a second account: the owner's own address gets a notice at most.
        for (const mail of app.mailbox.slice(mails)) {
          expect(mail.to).toBe("josé@example.com")
          expect(linksIn(mail).some((url) => url.pathname.endsWith("/password/verify-email"))).toBe(false)
        }
        expect(await opens(app, spelling, PW.eve)).toBe(false)
      }
      expect(await userIdOf(app, "josé@example.com")).toBe(ownerUserId)
      // The owner's password opens the account from any spelling.
      expect(await opens(app, "JOSÉ@EXAMPLE.COM", PW.ada)).toBe(true)
    })

    it("forgot-password for a re-spelled address mails the account's own address, never the spelling typed", async () => {
      await account(app, "maria@example.com", PW.ada)
      const mails = app.mailbox.length
      await app.browser().post("/auth/password/forgot", { email: " MARIA@ｅｘａｍｐｌｅ.com" })
      expect(app.mailbox.slice(mails).map((mail) => mail.to)).toEqual(["maria@example.com"])
    })

    for (const [kind, lookAlike] of [
      ["a Cyrillic а in the domain", (n: number) => `victim${n}@exаmple.com`],
      ["a +tag", (n: number) => `victim${n}+tag@example.com`],
      ["a dot in the local part", (n: number) => `vic.tim${n}@example.com`],
    ] as const) {
      it(`${kind}: another address, whose sign-up and reset never touch the victim's account`, async () => {
        const n = ++userCount
        const victim = `victim${n}@example.com`
        const spelling = lookAlike(n)
        const victimBrowser = await account(app, victim, PW.ada)
        const victimId = await userIdOf(app, victim)
        const mails = app.mailbox.length
        // The attacker owns the look-alike's mailbox: every mail it triggers lands there.
        const attacker = await account(app, spelling, PW.eve).catch(() => undefined)
        for (const mail of app.mailbox.slice(mails)) expect(mail.to).not.toBe(victim)
        if (attacker) expect(await userIdOf(app, spelling)).not.toBe(victimId)
        const forgot = app.mailbox.length
        await app.browser().post("/auth/password/forgot", { email: spelling })
        for (const mail of app.mailbox.slice(forgot)) {
          expect(mail.to).not.toBe(victim)
          const link = linksIn(mail).find((url) => url.pathname.endsWith("/password/reset"))
          if (link) {
            await reset(app.browser(), link, "the attacker's chosen passphrase")
            await reset(app.browser(), link, "the attacker's chosen passphrase", { email: victim })
          }
        }
        expect(await opens(app, victim, "the attacker's chosen passphrase")).toBe(false)
        expect(await opens(app, victim, PW.ada)).toBe(true)
        expect((await victimBrowser.session())?.user?.email).toBe(victim)
      })
    }

    it("change-email to an address another user has (or a spelling of it): the address never moves", async () => {
      const taken = fresh("taken")
      await account(app, taken, PW.ada)
      const takenId = await userIdOf(app, taken)
      const mover = fresh("mover")
      const browser = await account(app, mover, PW.bob)
      const moverId = await userIdOf(app, mover)
      for (const target of [taken, taken.toUpperCase(), ` ${taken} `]) {
        const mails = app.mailbox.length
        const answer = await browser.post("/auth/password/change-email", { newEmail: target, password: PW.bob })
        expect(answer.status).toBeLessThan(500)
        // Whatever was mailed, following it must not give the mover the other user's address.
        for (const mail of app.mailbox.slice(mails)) for (const link of linksIn(mail)) await browser.open(pathOf(link))
      }
      expect(await userIdOf(app, taken)).toBe(takenId)
      expect(await userIdOf(app, mover)).toBe(moverId)
      expect((await browser.session())?.user?.email).toBe(mover)
      expect(await opens(app, taken, PW.ada)).toBe(true)
    })

    it("change-email to a free address that someone signs up for before the link is followed: still one user per address", async () => {
      const mover = fresh("mover")
      const browser = await account(app, mover, PW.bob)
      const target = fresh("contested")
      expect((await browser.post("/auth/password/change-email", { newEmail: target, password: PW.bob })).status).toBe(200)
      const confirm = linkTo(app.mailbox, target, "confirm-email")
      const squatter = await account(app, target, PW.eve)
      const squatterId = await userIdOf(app, target)
      await browser.open(pathOf(confirm))
      expect(await userIdOf(app, target)).toBe(squatterId)
      expect((await squatter.session())?.user?.email).toBe(target)
    })
  })

  describe(`an unverified sign-up never takes over a verified OAuth user (${strategy} sessions)`, () => {
    for (const provider of [{}, { requireEmailVerification: false }, { allowLinkingToExistingUser: true }] as const) {
      it(`Password(${JSON.stringify(provider)}): the OAuth user keeps no password the attacker chose and no attacker session`, async () => {
        const app = passwordApp({ strategy, provider })
        const olga = fresh("olga")
        const user = await app.adapter.createUser!({ id: crypto.randomUUID(), email: olga, emailVerified: new Date(), name: "Olga" })
        await app.adapter.linkAccount!({ userId: user.id, type: "oidc", provider: "corp", providerAccountId: "olga-at-corp" })
        const attacker = app.browser()
        const answer = await attacker.post("/auth/password/sign-up", { email: olga, password: PW.eve })
        expect(answer.status).toBeLessThan(500)
        const session = await attacker.session()
        expect(session?.user?.email === olga && session?.user?.id === user.id).toBe(false)
        expect(await opens(app, olga, PW.eve)).toBe(false)
        expect(await app.adapter.getUserPassword!(user.id)).toBeFalsy()
        // Any mail went to Olga's own inbox, which the attacker does not read.
        for (const mail of app.mailbox) expect(mail.to).toBe(olga)
      })
    }

    it("allowLinkingToExistingUser: Olga following the link she was mailed still does not give the attacker's password her account", async () => {
      const app = passwordApp({ strategy, provider: { allowLinkingToExistingUser: true } })
      const olga = fresh("olga")
      const user = await app.adapter.createUser!({ id: crypto.randomUUID(), email: olga, emailVerified: new Date(), name: "Olga" })
      await app.adapter.linkAccount!({ userId: user.id, type: "oidc", provider: "corp", providerAccountId: "olga-at-corp-2" })
      await app.browser().post("/auth/password/sign-up", { email: olga, password: PW.eve })
      // Olga clicks whatever arrived, in her own browser.
      for (const mail of app.mailbox) for (const link of linksIn(mail)) await app.browser().open(pathOf(link))
      expect(await opens(app, olga, PW.eve)).toBe(false)
    })
  })
}
