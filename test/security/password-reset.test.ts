// Attacks on the mailed reset link (issue #28), on every store (memory, real PostgreSQL through
// @auth/pg-adapter, real MariaDB through @auth/kysely-adapter, each with the one added column and
// the two methods) and with JWT and database sessions: a link used twice, after it expired (a
// faked clock), with another user's address, after a newer one was sent, guessed, truncated,
// lengthened or re-cased (MariaDB's default collation compares case-insensitively, so a token
// stored as it was mailed would match a re-cased one there), and read back from the token table
// or the logs. Each attack ends by checking what it would have won: the password it tried to set
// must not sign in.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import type { Adapter, VerificationToken } from "../../src/adapters/adapter.js"
import { account, expectRefused, passwordApp, PW, reset, resetLink, signIn, storesHere, STRATEGIES, type PasswordApp, type PasswordStore } from "./password-support.js"

const ATTACKER = "the attacker's chosen passphrase"

/** The adapter with every verification token it is handed recorded (what a database reader sees). */
function recordingTokens(adapter: Adapter): { adapter: Adapter; written: VerificationToken[] } {
  const written: VerificationToken[] = []
  const createVerificationToken = adapter.createVerificationToken!.bind(adapter)
  return { adapter: { ...adapter, createVerificationToken: (token) => (written.push({ ...token }), createVerificationToken(token)) }, written }
}

async function opens(app: PasswordApp, email: string, password: string): Promise<boolean> {
  return (await signIn(app, email, password)).response.status === 200
}

let userCount = 0
const fresh = (name: string) => `${name}${++userCount}@example.com`

for (const { entry, reason } of await storesHere()) {
  for (const strategy of STRATEGIES) {
    describe.skipIf(reason !== undefined)(`reset link attacks: ${entry.name}, ${strategy} sessions${reason ? ` (skipped: ${reason})` : ""}`, () => {
      let store: PasswordStore
      let app: PasswordApp
      let written: VerificationToken[]
      beforeAll(async () => {
        store = await entry.setup()
        const recorded = recordingTokens(store.adapter)
        written = recorded.written
        app = passwordApp({ strategy, adapter: recorded.adapter })
      }, 30_000)
      afterAll(async () => {
        vi.useRealTimers()
        await store?.teardown()
      })

      it("one user's pending link blocks no one else's (Auth.js schemas keep verification tokens UNIQUE by token alone)", async () => {
        // The attacker leaves a link of their own pending; then others sign up and ask for resets.
        const attacker = fresh("eve")
        expect((await app.browser().post("/auth/password/sign-up", { email: attacker, password: PW.eve })).status).toBe(200)
        const [ada, bob] = [fresh("ada"), fresh("bob")]
        await account(app, ada, PW.ada)
        await account(app, bob, PW.bob)
        await resetLink(app, ada)
        await resetLink(app, bob)
        expect(app.logged).toEqual([])
      })

      it("the genuine link works once: a replay is InvalidToken and sets nothing", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        const link = await resetLink(app, ada)
        const first = await reset(app.browser(), link, PW.fresh)
        expect(first.status).toBe(200)
        const replay = await reset(app.browser(), link, ATTACKER)
        await expectRefused(replay, "InvalidToken")
        expect(await opens(app, ada, ATTACKER)).toBe(false)
        expect(await opens(app, ada, PW.fresh)).toBe(true)
      })

      it("an expired link is InvalidToken (the clock moved 8 days on)", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
        try {
          const link = await resetLink(app, ada)
          vi.setSystemTime(Date.now() + 8 * 24 * 3600 * 1000)
          const late = await reset(app.browser(), link, ATTACKER)
          await expectRefused(late, "InvalidToken")
          expect(await opens(app, ada, ATTACKER)).toBe(false)
          expect(await opens(app, ada, PW.ada)).toBe(true)
        } finally {
          vi.useRealTimers()
        }
      })

      it("a link for user A posted with user B's address resets no one", async () => {
        const [eve, bob] = [fresh("eve"), fresh("bob")]
        await account(app, eve, PW.eve)
        await account(app, bob, PW.bob)
        const evesLink = await resetLink(app, eve)
        const crossed = await reset(app.browser(), evesLink, ATTACKER, { email: bob })
        await expectRefused(crossed, "InvalidToken")
        expect(await opens(app, bob, ATTACKER)).toBe(false)
        expect(await opens(app, bob, PW.bob)).toBe(true)
        // Nor a spelling of B's address that normalises to it, nor A's token with A's address re-cased to B.
        await expectRefused(await reset(app.browser(), evesLink, ATTACKER, { email: ` ${bob.toUpperCase()} ` }), "InvalidToken")
        expect(await opens(app, bob, ATTACKER)).toBe(false)
      })

      it("an older link after a newer one was sent is InvalidToken, whether or not the newer was used", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        const older = await resetLink(app, ada)
        const newer = await resetLink(app, ada)
        expect(newer.searchParams.get("token")).not.toBe(older.searchParams.get("token"))
        const stale = await reset(app.browser(), older, ATTACKER)
        await expectRefused(stale, "InvalidToken")
        expect(await opens(app, ada, ATTACKER)).toBe(false)
        expect((await reset(app.browser(), newer, PW.fresh)).status).toBe(200)
        await expectRefused(await reset(app.browser(), older, ATTACKER), "InvalidToken")
        expect(await opens(app, ada, ATTACKER)).toBe(false)
        expect(await opens(app, ada, PW.fresh)).toBe(true)
      })

      it("guessed, truncated, lengthened and re-cased tokens are InvalidToken, and the genuine link still works", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        const link = await resetLink(app, ada)
        const token = link.searchParams.get("token")!
        expect(token.length).toBeGreaterThanOrEqual(32)
        const swapCase = [...token].map((c) => (c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase())).join("")
        const guesses = [token.slice(0, -1), token.slice(0, 16), `${token}A`, `${token} `, token.toUpperCase(), token.toLowerCase(), swapCase, "A".repeat(token.length), "", encodeURIComponent(`${token}%00`)]
        let tried = 0
        for (const guess of new Set(guesses)) {
          if (guess === token) continue
          tried++
          const answer = await reset(app.browser(), link, ATTACKER, { token: guess })
          expect({ guess, status: answer.status }).toEqual({ guess, status: expect.toSatisfy((status: number) => status >= 400 && status <= 403) })
          expect(await opens(app, ada, ATTACKER)).toBe(false)
        }
        expect(tried).toBeGreaterThanOrEqual(6)
        expect((await reset(app.browser(), link, PW.fresh)).status).toBe(200)
        expect(await opens(app, ada, PW.fresh)).toBe(true)
      })

      it("the token is stored hashed: no verification-token row holds the mailed token, and the row's value does not reset", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        const before = written.length
        const link = await resetLink(app, ada)
        const token = link.searchParams.get("token")!
        const rows = written.slice(before)
        expect(rows.length).toBeGreaterThanOrEqual(1)
        for (const row of rows) expect(row.token).not.toContain(token)
        // What a database reader holds is not a link: the stored value posted as the token fails.
        for (const row of rows) await expectRefused(await reset(app.browser(), link, ATTACKER, { token: row.token }), "InvalidToken")
        expect(await opens(app, ada, ATTACKER)).toBe(false)
      })

      it("the links, tokens and passwords of a full reset never reach the logger", async () => {
        const ada = fresh("ada")
        await account(app, ada, PW.ada)
        const link = await resetLink(app, ada)
        await reset(app.browser(), link, "short")
        await reset(app.browser(), link, ATTACKER, { token: link.searchParams.get("token")!.slice(1) })
        await reset(app.browser(), link, PW.fresh)
        await reset(app.browser(), link, PW.fresh)
        const printed = JSON.stringify(app.logged, (_, value) => (value instanceof Error ? { message: value.message, stack: value.stack, cause: value.cause } : value))
        for (const secret of [link.searchParams.get("token")!, PW.ada, PW.fresh, ATTACKER]) expect(printed).not.toContain(secret)
      })
    })
  }
}
