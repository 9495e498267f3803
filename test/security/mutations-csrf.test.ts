// CSRF on sign-in and sign-out with the bodies a cross-site `fetch(url, { mode: "no-cors",
// credentials: "include" })` can send without a preflight: `text/plain`, and `text/plain` with a
// parameter that mentions `application/json`. A sibling subdomain is same-site, so SameSite=Lax
// cookies go along with such a request; only the CSRF token (which it cannot read) stops it. Each
// attack must be refused however the body is labelled.
import { describe, expect, it } from "vitest"
import type { TestBrowser } from "../servers/browser.js"
import { corpProvider, csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "./support.js"

const corp = corpProvider([{ sub: "victim", email: "victim@example.com", name: "Victim" }])
const SIBLING = "https://sibling.example.com"

/** Bodies a no-cors request can carry, each without the victim's CSRF token (the attacker cannot read it). */
const NO_CORS_BODIES = [
  { contentType: "text/plain", body: "callbackUrl=%2Fattacker-chosen" },
  { contentType: "text/plain; x=application/json", body: JSON.stringify({ callbackUrl: "/attacker-chosen" }) },
  { contentType: "text/plain;charset=UTF-8; x=application/json", body: JSON.stringify({ callbackUrl: "/attacker-chosen", csrfToken: "" }) },
]

/** The victim, signed in through corp, with a valid CSRF cookie in the jar. */
async function signedInVictim(site: ReturnType<typeof secureApp>): Promise<TestBrowser> {
  const victim = site.browser()
  await post(victim, "/auth/signin/corp", { csrfToken: await csrfOf(victim) })
  expect((await sessionOf(victim))?.user.email).toBe("victim@example.com")
  expect(Object.keys(jarOf(victim))).toContain("__Host-authjs.csrf-token")
  return victim
}

/** What the sibling's no-cors fetch makes the victim's browser send: the victim's cookies, the sibling's Origin. */
function crossSitePost(site: ReturnType<typeof secureApp>, victim: TestBrowser, path: string, contentType: string, body: string): Promise<Response> {
  const cookie = Object.entries(jarOf(victim)).map(([name, value]) => `${name}=${value}`).join("; ")
  return site.handler(new Request(`${ORIGIN}${path}`, { method: "POST", headers: { cookie, origin: SIBLING, "content-type": contentType }, body }))
}

function refusedAsMissingCsrf(response: Response): void {
  expect(response.status).toBe(302)
  const location = new URL(response.headers.get("location")!, ORIGIN)
  expect(location.origin + location.pathname).toBe(`${ORIGIN}/auth/signin`)
  expect(location.searchParams.get("error")).toBe("MissingCSRF")
}

describe("CSRF with a no-cors body", () => {
  it.each(NO_CORS_BODIES)("POST /auth/signin/corp as $contentType does not start a sign-in", async ({ contentType, body }) => {
    const site = secureApp({ providers: [corp.provider()] })
    const victim = await signedInVictim(site)
    const response = await crossSitePost(site, victim, "/auth/signin/corp", contentType, body)
    refusedAsMissingCsrf(response)
    expect(response.headers.getSetCookie()).toEqual([])
  })

  it.each(NO_CORS_BODIES)("POST /auth/signout as $contentType does not sign the victim out", async ({ contentType, body }) => {
    const site = secureApp({ providers: [corp.provider()] })
    const victim = await signedInVictim(site)
    const response = await crossSitePost(site, victim, "/auth/signout", contentType, body)
    refusedAsMissingCsrf(response)
    expect(response.headers.getSetCookie()).toEqual([])
    expect((await sessionOf(victim))?.user.email).toBe("victim@example.com")
  })

  it("the same sign-out, sent by the app's own form with the token, does sign out (the control)", async () => {
    const site = secureApp({ providers: [corp.provider()] })
    const victim = await signedInVictim(site)
    const { url } = await post(victim, "/auth/signout", { csrfToken: await csrfOf(victim), callbackUrl: "/bye" })
    expect(url.href).toBe(`${ORIGIN}/bye`)
    expect(await sessionOf(victim)).toBeNull()
  })
})
