// Account enumeration against the password routes (issue #28): an attacker who wants to know
// whether an address has an account asks sign-in, sign-up and forgot-password about a known and
// an unknown address and compares the answers (status, headers with cookie values blanked, body),
// the mail sent, and the work done. The work is counted at node:crypto's scrypt and pbkdf2 (the
// runtime's key derivation, wrapped here to count calls and passed through unchanged): an unknown
// address must cost the same derivations as a known one, which is what makes the times equal. The
// times themselves are printed (medians of interleaved samples), never asserted: bench/
// password-enumeration.mjs measures them properly.
import { beforeAll, describe, expect, it, vi } from "vitest"
import { account, json, passwordApp, PW, shape, STRATEGIES, type PasswordApp } from "./password-support.js"

const kdf = vi.hoisted(() => ({ calls: 0 }))
vi.mock("node:crypto", async (importOriginal) => (await import("./counting-kdf.js")).countingCrypto(await importOriginal(), kdf))

const KNOWN = "ada@example.com"
const UNKNOWN = "nobody@example.com"

/** Runs `send` and answers its response with the key derivations it made and its milliseconds. */
async function measured(send: () => Promise<Response>): Promise<{ response: Response; derivations: number; ms: number }> {
  const before = kdf.calls
  const start = performance.now()
  const response = await send()
  await response.clone().text()
  return { response, derivations: kdf.calls - before, ms: performance.now() - start }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!

for (const strategy of STRATEGIES) {
  describe(`enumeration (${strategy} sessions)`, () => {
    let app: PasswordApp
    beforeAll(async () => {
      app = passwordApp({ strategy })
      await account(app, KNOWN, PW.ada)
    }, 60_000)

    const routes = {
      "sign-in": (email: string) => app.browser().post("/auth/callback/password", { email, password: "not the password at all, sorry" }),
      "sign-up": (email: string) => app.browser().post("/auth/password/sign-up", { email, password: PW.eve }),
      forgot: (email: string) => app.browser().post("/auth/password/forgot", { email }),
    }
    const forms = {
      "sign-in": (email: string) => app.browser().post("/auth/callback/password", { email, password: "not the password at all, sorry" }, { form: true }),
      "sign-up": (email: string) => app.browser().post("/auth/password/sign-up", { email, password: PW.eve }, { form: true }),
      forgot: (email: string) => app.browser().post("/auth/password/forgot", { email }, { form: true }),
    }

    for (const route of Object.keys(routes) as (keyof typeof routes)[]) {
      it(`${route}: a known and an unknown address get the same answer (JSON and HTML form) and cost the same derivations`, async () => {
        // A fresh unknown address each time, so sign-up's unknown address is still unknown.
        const unknown = (n: number) => `nobody${n}-${route}@example.com`
        const known = await measured(() => routes[route](KNOWN))
        const stranger = await measured(() => routes[route](unknown(1)))
        expect(await shape(stranger.response)).toEqual(await shape(known.response))
        expect(stranger.response.status).toBe(route === "sign-in" ? stranger.response.status : 200)
        if (route === "sign-in") expect([400, 401, 403]).toContain(stranger.response.status)
        expect(stranger.derivations).toBe(known.derivations)
        expect(known.derivations).toBeGreaterThanOrEqual(1)

        const knownForm = await forms[route](KNOWN)
        const strangerForm = await forms[route](unknown(2))
        expect(await shape(strangerForm)).toEqual(await shape(knownForm))
        expect(strangerForm.status).toBe(302)
      })
    }

    it("sign-in: the refusal never says which part was wrong", async () => {
      const answer = await routes["sign-in"](UNKNOWN)
      expect(await json(answer)).toEqual({ error: "CredentialsSignin" })
    })

    it("sign-in: an unverified address with a wrong password answers as an unknown one (EmailNotVerified only after the right one)", async () => {
      const pending = "pending@example.com"
      await app.browser().post("/auth/password/sign-up", { email: pending, password: PW.bob })
      const wrong = await measured(() => routes["sign-in"](pending))
      const stranger = await measured(() => routes["sign-in"]("stranger@example.com"))
      expect(await shape(wrong.response)).toEqual(await shape(stranger.response))
      expect(wrong.derivations).toBe(stranger.derivations)
      const right = await app.browser().post("/auth/callback/password", { email: pending, password: PW.bob })
      expect(await json(right)).toMatchObject({ error: "EmailNotVerified" })
    })

    it("sign-in: an OAuth user with no password answers as an unknown address, after the same work", async () => {
      await app.adapter.createUser!({ id: crypto.randomUUID(), email: "oauth-only@example.com", emailVerified: new Date() })
      const oauthOnly = await measured(() => routes["sign-in"]("oauth-only@example.com"))
      const stranger = await measured(() => routes["sign-in"]("stranger2@example.com"))
      expect(await shape(oauthOnly.response)).toEqual(await shape(stranger.response))
      expect(oauthOnly.derivations).toBe(stranger.derivations)
    })

    it("sign-up of a taken address mails its owner a notice, not a link, and changes nothing of the account", async () => {
      const before = app.mailbox.length
      const answer = await app.browser().post("/auth/password/sign-up", { email: KNOWN, password: PW.eve, name: "Eve" })
      expect(answer.status).toBe(200)
      const mails = app.mailbox.slice(before)
      expect(mails.map((mail) => mail.to)).toEqual([KNOWN])
      expect(mails[0]!.text).not.toMatch(/\/password\/(verify-email|reset|confirm-email)\?/)
      // The attacker's password does not open the account; the owner's still does.
      expect((await app.browser().post("/auth/callback/password", { email: KNOWN, password: PW.eve })).status).not.toBe(200)
      expect((await app.browser().post("/auth/callback/password", { email: KNOWN, password: PW.ada })).status).toBe(200)
    })

    it("forgot: the known address gets one mail, the unknown none", async () => {
      const before = app.mailbox.length
      await routes.forgot(KNOWN)
      await routes.forgot(UNKNOWN)
      expect(app.mailbox.slice(before).map((mail) => mail.to)).toEqual([KNOWN])
    })

    it("timing, printed: known vs unknown, interleaved (no threshold here; see bench/password-enumeration.mjs)", async () => {
      const SAMPLES = 7
      const lines: string[] = []
      for (const route of Object.keys(routes) as (keyof typeof routes)[]) {
        const times = { known: [] as number[], unknown: [] as number[] }
        for (let round = 0; round < SAMPLES; round++) {
          const order = round % 2 === 0 ? (["known", "unknown"] as const) : (["unknown", "known"] as const)
          for (const who of order) {
            const email = who === "known" ? KNOWN : `timing${round}-${route}@example.com`
            times[who].push((await measured(() => routes[route](email))).ms)
          }
        }
        lines.push(`${route}: known ${median(times.known).toFixed(1)} ms, unknown ${median(times.unknown).toFixed(1)} ms (medians of ${SAMPLES})`)
      }
      console.log(`[password enumeration timing, ${strategy}, test scrypt cost] ${lines.join("; ")}`)
      expect(lines).toHaveLength(3)
    }, 120_000)
  })
}
