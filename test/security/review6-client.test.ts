// Review 6: latchkey/client and latchkey/react against the real handler. Each test is a finding:
// it fails on the current code because of the defect it names.
import { afterEach, describe, expect, it, vi } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import type { Session } from "../../src/types.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { passwordsWith } from "../../src/passwords/index.js"
import Password, { type PasswordEmail } from "../../src/providers/password.js"
import { CHEAP } from "../passwords/support.js"
import { APP, clientApp, credentials, memoryStorage, sleep, stateWhere } from "./review6-client-support.js"

afterEach(() => {
  vi.unstubAllGlobals()
})

describe("review 6: latchkey/client", () => {
  it("bug: two tabs whose session user differs per read (a presigned avatar URL) ping-pong /session reads forever", async () => {
    // A very common session callback: the avatar is a presigned CDN/S3 URL, signed afresh on every
    // read. learned() (src/client/client.ts) broadcasts "session" whenever the user's digest differs
    // from the remembered one, and every receiver re-reads, finds yet another digest and broadcasts
    // again: two open tabs (here two subscribed clients on the same channel, as two tabs with a
    // SessionProvider each, or a provider plus a subscribed createAuthClient) hammer /auth/session
    // for as long as they stay open. next-auth's receivers never re-broadcast. Right behaviour: a
    // read caused by another tab's signal does not itself broadcast (or a broadcast is sent only for
    // a change of identity: signed in/out or another user id), so one change costs one read per tab.
    vi.stubGlobal("localStorage", memoryStorage())
    let signature = 0
    const { pageFetch, page, client: acting } = clientApp({
      providers: [credentials()],
      callbacks: { session: ({ session }: { session: Session }) => ({ ...session, user: { ...session.user, image: `https://cdn.example/ada.png?X-Amz-Signature=${++signature}` } }) },
    })
    expect(await acting.signIn("credentials", { username: "ada", password: "right", redirect: false })).toMatchObject({ ok: true })
    // Each request takes a macrotask, as a network would (and the loop cannot starve the timers).
    const networkFetch: typeof fetch = async (input, init) => (await sleep(1), pageFetch(input, init))
    const tabA = createAuthClient({ baseUrl: APP, fetch: networkFetch, refetchOnWindowFocus: false })
    const tabB = createAuthClient({ baseUrl: APP, fetch: networkFetch, refetchOnWindowFocus: false })
    const stopA = tabA.subscribe(() => undefined)
    const stopB = tabB.subscribe(() => undefined)
    await stateWhere(tabA, (state) => state.status === "authenticated")
    await stateWhere(tabB, (state) => state.status === "authenticated")
    await sleep(50)
    page.requests.length = 0
    await tabA.getSession() // one read (a focus, say)
    await sleep(300)
    stopA()
    stopB()
    const reads = page.requests.filter((request) => request.path === "/auth/session").length
    // One read here, at most one in the other tab in answer.
    expect(reads).toBeLessThanOrEqual(2)
  })
  it("bug: an update() answered after signOut() resolved puts the signed-out user back on screen", async () => {
    // update() (src/client/client.ts, update) sets whatever its POST answers, without the
    // generation check getSession has: a sign-out that completes while an update is on the wire
    // (a settings page saving a preference while the user clicks "Sign out", or another tab signing
    // out) is overwritten by the older answer, so the UI shows the user signed in (and SessionProvider
    // renders their data) though the browser holds no session. Right behaviour: a change that
    // happened after the update was sent wins; the stale answer is dropped (or the session read again).
    const held: Array<() => void> = []
    let holdUpdates = false
    const { pageFetch, page } = clientApp({ providers: [credentials()] })
    const slowFetch: typeof fetch = async (input, init) => {
      const answer = await pageFetch(input, init) // the server handled it at once (cookies set then)
      if (holdUpdates && init?.method === "POST" && new URL(String(input)).pathname === "/auth/session") await new Promise<void>((resolve) => held.push(resolve))
      return answer
    }
    const client = createAuthClient({ baseUrl: APP, fetch: slowFetch, broadcast: false, refetchOnWindowFocus: false })
    expect(await client.signIn("credentials", { username: "ada", password: "right", redirect: false })).toMatchObject({ ok: true })
    expect(client.getState().status).toBe("authenticated")
    holdUpdates = true
    const updating = client.update({ theme: "dark" })
    while (held.length === 0) await sleep(1)
    expect(await client.signOut({ redirect: false })).toMatchObject({ ok: true })
    expect(client.getState().status).toBe("unauthenticated")
    expect([...page.browser.cookies(APP).keys()].some((name) => name.includes("session-token"))).toBe(false)
    held.shift()!()
    await updating
    // The browser has no session cookie: the state must stay signed out.
    expect(client.getState()).toEqual({ data: null, status: "unauthenticated" })
  })
  it("bug: resetPassword() from the mailed link's page sends the browser back to that page (the used token in the URL), not to the link's callbackUrl", async () => {
    // destinationOf() (src/client/client.ts) defaults every call's redirectTo to location.href. On
    // the reset page that is the mailed link itself (?token=…&email=…&callbackUrl=<where the user
    // was>), so after a successful reset the browser is sent back to the reset form with the
    // consumed token (and the token is posted again as part of callbackUrl), instead of to the
    // callbackUrl the link carries, where the user asked to go. Right behaviour: resetPassword's
    // default destination is the link's callbackUrl (or the server's default), never a URL that
    // carries the reset token.
    const mailbox: PasswordEmail[] = []
    const { client } = clientApp({ providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), requireEmailVerification: false })], adapter: memoryAdapter(), passwords: passwordsWith(CHEAP), rateLimits: false })
    const went: string[] = []
    const page = { href: `${APP}/signup`, assign: (url: string) => void went.push(url), reload: () => void went.push("reload") }
    vi.stubGlobal("location", page)
    expect(await client.signUp({ email: "ada@example.com", password: "correct horse battery staple" }, { redirect: false })).toMatchObject({ ok: true })
    await client.signOut({ redirect: false })
    page.href = `${APP}/account/forgot`
    expect(await client.requestPasswordReset("ada@example.com")).toMatchObject({ ok: true })
    const link = new URL(mailbox.at(-1)!.url!)
    const token = link.searchParams.get("token")!
    page.href = link.href // the user opened the mailed link; the page's form calls resetPassword
    const result = await client.resetPassword({ token, email: link.searchParams.get("email")!, password: "another long passphrase here" })
    expect(result).toMatchObject({ ok: true })
    expect(went).toHaveLength(1)
    expect(went[0]).not.toContain(token)
    expect(went[0]).toBe(`${APP}/account/forgot`)
  })
})
