// A reset (and a change that signs out everywhere) must end the other sessions, or a thief who
// caused it stays signed in. The outside review's case: docs/passwords.md's @auth/pg-adapter snippet
// added the two password methods but not deleteSessionsByUserId, createAuth took it with database
// sessions, and a reset then wrote the new password, spent the link, and failed to end any session:
// the attacker stayed in. So createAuth now asks for the method up front, and the sessions end
// before the password is written, so a fault leaves the old password and no half-done reset.
import { describe, expect, it } from "vitest"
import { MissingAdapterMethodError } from "../../src/errors.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { GOOD, linkOf, ORIGIN, OTHER, passwordApp } from "./flows-support.js"

/** The memory adapter as an @auth/* adapter is: no deleteSessionsByUserId. */
function withoutRevoke() {
  const adapter = memoryAdapter()
  Reflect.deleteProperty(adapter, "deleteSessionsByUserId")
  return adapter
}

describe("password accounts and ending sessions", () => {
  it("createAuth refuses database sessions on an adapter that cannot end a user's sessions", () => {
    expect(() => passwordApp({ strategy: "database", adapter: withoutRevoke() })).toThrow(MissingAdapterMethodError)
    expect(() => passwordApp({ strategy: "database", adapter: withoutRevoke() })).toThrow(/deleteSessionsByUserId/)
    // JWT sessions end through the session version, with no adapter method.
    expect(() => passwordApp({ strategy: "jwt", adapter: withoutRevoke() })).not.toThrow()
  })

  it("a reset whose session revocation fails writes no new password, and the thief's session is not left behind a new one", async () => {
    const adapter = memoryAdapter()
    const app = passwordApp({ strategy: "database", adapter })
    const owner = app.browser()
    await owner.signUp({ email: "ada@example.com", password: GOOD })
    await owner.get(linkOf(app.mailTo("ada@example.com", "verify-email")))
    const thief = app.browser()
    expect((await thief.signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
    adapter.deleteSessionsByUserId = () => {
      throw new Error("database down")
    }
    await owner.post("/auth/password/forgot", { email: "ada@example.com" })
    const reset = new URL(linkOf(app.mailTo("ada@example.com", "reset")), ORIGIN)
    const answer = await owner.post("/auth/password/reset", { token: reset.searchParams.get("token")!, email: "ada@example.com", password: OTHER }, { script: true })
    expect(answer.status).toBeGreaterThanOrEqual(400)
    // Nothing half-done: the old password still signs in and the new one does not.
    expect((await app.browser().signIn("ada@example.com", OTHER, { script: true })).status).toBe(401)
    expect((await app.browser().signIn("ada@example.com", GOOD, { script: true })).status).toBe(200)
  })
})
