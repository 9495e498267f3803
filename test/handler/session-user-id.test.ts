// session.user.id is there by default (issue #29 item 4): without it, a JavaScript app's
// revokeSessions(session.user.id) silently revoked nothing. JWT sessions take it from token.sub,
// database sessions from the user's row; an Auth.js app's callback that adds it keeps working.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import { corpProvider, csrfOf, post, secureApp, sessionOf } from "../security/support.js"
import { app, csrf, postForm, session } from "./support.js"

const ADA = { sub: "ada-sub", email: "ada@example.com", name: "Ada" }
const idp = corpProvider([ADA])
const credentials = () => Credentials({ credentials: { username: {} }, authorize: () => ({ id: "user-1", name: "Ada" }) })

describe("session.user.id by default", () => {
  it("JWT sessions carry the token's subject as session.user.id, in /session and auth()", async () => {
    const { browser, auth } = app({ providers: [credentials()] })
    await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada" })
    expect((await session(browser))?.user).toMatchObject({ id: "user-1", name: "Ada" })
    const cookie = [...browser.cookies("http://localhost:3000").entries()].map(([name, value]) => `${name}=${value}`).join("; ")
    expect((await auth(new Request("http://localhost:3000/page", { headers: { cookie } })))?.user.id).toBe("user-1")
  })

  it("database sessions carry the user's id, and revokeSessions(session.user.id) then signs the user out", async () => {
    const adapter = memoryAdapter()
    const site = secureApp({ providers: [idp.provider()], adapter })
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    const signedIn = await sessionOf(browser)
    const stored = await adapter.getUserByEmail(ADA.email)
    expect(signedIn?.user.id).toBe(stored!.id)
    await site.revokeSessions(signedIn!.user.id)
    expect(await sessionOf(browser)).toBeNull()
  })

  it("an Auth.js session callback that adds the id itself gets the same answer", async () => {
    const { browser } = app({
      providers: [credentials()],
      callbacks: { session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub! } }) },
    })
    await postForm(browser, "/auth/signin/credentials", { csrfToken: await csrf(browser), username: "ada" })
    expect((await session(browser))?.user).toMatchObject({ id: "user-1", name: "Ada" })
  })
})
