// A provider-token refresh is a write: it makes the provider mint a new access token and rotate the
// refresh token. With JWT sessions and `redisSessionVersions` shared by two instances (each keeping a
// local copy of a user's version for `cacheMs`), `revokeSessions` on instance A left instance B
// refreshing for the revoked session's stolen cookies while B's copy was fresh: the provider saw a
// new refresh grant and `getAccessToken` on B handed out the new token. A due refresh now asks the
// shared store first (as `confirmedUser` does) and refuses when the version no longer holds; a
// session that was not revoked refreshes as before, and a read with nothing due sends Redis nothing.
// On the real Redis (127.0.0.1:6379) and a real oidc-provider that counts refresh grants.
import Redis from "ioredis"
import { describe, expect, it } from "vitest"
import { providerTokens } from "../../src/provider-tokens/index.js"
import { redisSessionVersions } from "../../src/redis/index.js"
import type { RedisCommandClient } from "../../src/redis/command.js"
import { redisForSuite } from "../setup/services.js"
import { DEFAULT_ACCOUNT } from "../servers/oidc-provider.js"
import type { TestBrowser } from "../servers/browser.js"
import { refreshingProvider, requestFrom, sealedTokens, sessionRead, tokensSetBy, type RefreshingProvider } from "../tokens/support.js"
import { csrfOf, ORIGIN, post, secureApp } from "./support.js"

let redis: Redis | undefined
const prefix = `latchkey-test:refresh-revoked:${crypto.randomUUID()}:`

redisForSuite(prefix, (client) => (redis = client))

const ADA = DEFAULT_ACCOUNT
const EVE = { sub: "user-2", email: "eve@example.com", name: "Eve" }
const idp = refreshingProvider({ accounts: [ADA, EVE] })

/** The app's client, counting the commands sent through it: each is one round trip. */
function counting(client: Redis) {
  const sent: string[] = []
  return { sent, client: { call: (name: string, ...args: (string | number)[]) => (sent.push(name), client.call(name, ...args)) } }
}

/** Two instances of one app sharing `client`'s session versions (a copy of a minute: the window stays open for the test). */
function twoInstances(client: RedisCommandClient, keys: string) {
  const instance = () =>
    secureApp({
      providers: [idp().provider()],
      session: { strategy: "jwt", revocationStore: redisSessionVersions(client, { prefix: keys, cacheMs: 60_000 }) },
      providerTokens: providerTokens({ refresh: true }),
    })
  return [instance(), instance()] as const
}

/** A browser signed in to `site` as `sub` through the provider; its access token is due at once. */
async function signedInAs(provider: RefreshingProvider, site: ReturnType<typeof twoInstances>[number], sub: string): Promise<TestBrowser> {
  provider.server.signInAs(sub)
  const browser = site.browser()
  const { url } = await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
  expect(url.href).toBe(`${ORIGIN}/`)
  return browser
}

describe("JWT sessions: a provider-token refresh after revokeSessions on another instance", () => {
  it("B refuses to refresh for the revoked session's cookies within cacheMs; a live session on B refreshes once", async (test) => {
    if (!redis) return test.skip()
    const { sent, client } = counting(redis)
    const [a, b] = twoInstances(client, `${prefix}two:`)
    const laptop = await signedInAs(idp(), a, ADA.sub)
    const eve = await signedInAs(idp(), a, EVE.sub)
    // Ada signs in on B too: B now holds a fresh copy of her version.
    await signedInAs(idp(), b, ADA.sub)
    const stolen = requestFrom(laptop)
    const sealed = await sealedTokens(laptop)

    const grants = idp().refreshGrants()
    await a.revokeSessions(`corp:${ADA.sub}`)
    expect(await a.auth(stolen.clone())).toBeNull()
    // The documented staleness of a read: B's copy still honours the cookies for a read.
    expect(await b.auth(stolen.clone())).toMatchObject({ user: { email: ADA.email } })

    expect(await b.getAccessToken(stolen.clone(), "corp")).toBeNull()
    const read = await sessionRead(b, stolen.clone())
    expect(await tokensSetBy(read.setCookies)).toBeUndefined()
    expect(read.setCookies.some((line) => line.startsWith("__Secure-authjs.session-token=") && !/max-age=0/i.test(line))).toBe(false)
    expect(await b.getAccessToken(stolen.clone(), "corp")).toBeNull()
    expect(idp().refreshGrants() - grants).toBe(0)
    expect(sealed.access_token).toEqual(expect.any(String))

    // Eve's session was not revoked: B refreshes her due token, once, and hands it out.
    const eveBefore = await sealedTokens(eve)
    const token = await b.getAccessToken(requestFrom(eve), "corp")
    expect(typeof token).toBe("string")
    expect(token).not.toBe(eveBefore.access_token)
    const written = await sessionRead(b, requestFrom(eve))
    expect((await tokensSetBy(written.setCookies))?.access_token).toBe(token)
    expect(idp().refreshGrants() - grants).toBe(1)

    // With nothing due, a read pays no round trip to the shared store.
    eve.acceptCookies(ORIGIN, written.setCookies)
    sent.length = 0
    expect(await b.auth(requestFrom(eve))).toMatchObject({ user: { email: EVE.email } })
    expect(await b.getAccessToken(requestFrom(eve), "corp")).toBe(token)
    expect(sent).toEqual([])
    expect(idp().refreshGrants() - grants).toBe(1)
  })
})
