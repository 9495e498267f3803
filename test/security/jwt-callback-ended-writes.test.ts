// The outside review's finding: Auth.js ends a JWT session when the app's `jwt` callback answers null
// (an app-side "sign out everywhere": a per-user token version the callback compares). latchkey
// honours that on every read, so the same stolen cookies must not make a change that lasts either:
// registering the thief's passkey would be a way in for good. Every lasting change confirms the
// session (the session store's confirmedUser), and for JWT sessions that runs the callback too.
import { describe, expect, it } from "vitest"
import { callback, fixtures, passkeyApp, plantChallenge, sessionOf, signUp } from "../webauthn/support.js"
import { ORIGIN } from "../webauthn/support.js"
import { stolenFrom } from "./support.js"

const base64 = (base64url: string) => Buffer.from(base64url, "base64url").toString("base64")

/** A passkey app whose `jwt` callback ends a user's sessions once the app raises that user's version. */
function appWithVersions() {
  const versions = new Map<string, number>()
  const app = passkeyApp({
    callbacks: {
      jwt: ({ token, trigger }) => {
        const current = versions.get(String(token.sub)) ?? 0
        if (trigger === "signIn" || trigger === "signUp") return { ...token, appVersion: current }
        return Number(token.appVersion ?? 0) < current ? null : token
      },
    },
  })
  return { app, versions }
}

describe("a JWT session the app's jwt callback ended", () => {
  it("reads as signed out, and cannot register a passkey on the account", async () => {
    const { app, versions } = appWithVersions()
    const victim = app.browser()
    await signUp(victim, "ada")
    const victimId = String([...app.adapter.users.values()][0]!.id)
    const thief = stolenFrom(victim, app.browser(), ORIGIN)
    versions.set(victimId, 1)

    const grace = fixtures.registrations.grace
    await plantChallenge(thief, grace.challenge, "register", "passkey", { userId: victimId })
    const result = await callback(thief, "register", grace.response)
    expect([result.status, result.body]).toEqual([401, { error: "SessionRequired" }])
    expect(await app.adapter.getAuthenticator(base64(grace.response.id))).toBeNull()
    expect(await sessionOf(thief)).toBeNull()
  })

  it("a live session of the same app still registers one (the callback keeps it)", async () => {
    const { app } = appWithVersions()
    const victim = app.browser()
    await signUp(victim, "ada")
    const victimId = String([...app.adapter.users.values()][0]!.id)
    const grace = fixtures.registrations.grace
    await plantChallenge(victim, grace.challenge, "register", "passkey", { userId: victimId })
    const result = await callback(victim, "register", grace.response)
    expect(result.status).toBe(200)
    expect(await app.adapter.getAuthenticator(base64(grace.response.id))).not.toBeNull()
  })
})
