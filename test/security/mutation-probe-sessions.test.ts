// Mutation probe of src/jwt/ and src/adapters/: each describe pins one guard that could be deleted
// without any other test failing. Each test drives the attack the guard stops and checks what must hold.
import Redis from "ioredis"
import { describe, expect, it } from "vitest"
import { encode, getToken } from "../../src/jwt/index.js"
import Credentials from "../../src/providers/credentials.js"
import { redisSessionVersions } from "../../src/redis/index.js"
import { redisForSuite } from "../setup/services.js"
import { requestFrom, sessionRead } from "../tokens/support.js"
import { csrfOf, ORIGIN, post, secureApp } from "./support.js"

const SECRET = "mutation-probe-secret-0123456789abcdef"
const PLAIN = "authjs.session-token"
const SECURE = "__Secure-authjs.session-token"

let redis: Redis | undefined
const prefix = `latchkey-test:mutation-probe-sessions:${crypto.randomUUID()}:`
redisForSuite(prefix, (client) => (redis = client))

const people = () => Credentials({ credentials: { username: {} }, authorize: ({ username }) => ({ id: `u-${String(username)}`, name: String(username), email: `${String(username)}@example.com` }) })

describe("getToken with secureCookie: true reads only the __Secure- cookie", () => {
  // Guard: src/jwt/get-token.ts:findTokens (secondName is undefined when secureCookie is true)
  it("a valid token under the plain name, which plain http or a sibling can set, is not read by a secureCookie reader", async () => {
    // A session sealed for the plain cookie name (as an http origin of the same app writes it).
    const plain = await encode({ token: { sub: "attacker" }, secret: SECRET, salt: PLAIN })
    expect(await getToken({ req: new Headers({ cookie: `${PLAIN}=${plain}` }), secret: SECRET, secureCookie: false })).toMatchObject({ sub: "attacker" })
    expect(await getToken({ req: new Headers({ cookie: `${PLAIN}=${plain}` }), secret: SECRET, secureCookie: true })).toBeNull()
    // Nor does it stand in for a __Secure- cookie that does not open (a stale session, a rotated-away secret).
    const stale = await encode({ token: { sub: "victim" }, secret: "a-secret-this-app-no-longer-has-0123456", salt: SECURE })
    const req = new Headers({ cookie: `${SECURE}=${stale}; ${PLAIN}=${plain}` })
    expect(await getToken({ req, secret: SECRET, secureCookie: true })).toBeNull()
  })
})

describe("re-issuing a JWT session never makes it newer than the revocations it was read under", () => {
  // Guard: src/adapters/jwt-session-token.ts:reissuedCookies (the re-sealed token keeps versionOf(read), not the store's current version)
  it("a stolen cookie slid by an instance whose version copy lags a revokeSessions stays revoked on every instance", async (test) => {
    if (!redis) return test.skip()
    // Two instances sharing versions in Redis, each keeping a copy for a minute; every read slides (updateAge 0).
    const versions = () => redisSessionVersions(redis!, { prefix: `${prefix}lag:`, cacheMs: 60_000 })
    const instance = () => secureApp({ providers: [people()], session: { strategy: "jwt", updateAge: 0, revocationStore: versions() } })
    const [a, b] = [instance(), instance()]
    const laptop = a.browser()
    await post(laptop, "/auth/signin/credentials", { csrfToken: await csrfOf(laptop), username: "ada" })
    expect(await a.auth(requestFrom(laptop))).toMatchObject({ user: { name: "ada" } })
    // B reads the session once: it now holds a copy of Ada's version.
    expect(await b.auth(requestFrom(laptop))).toMatchObject({ user: { name: "ada" } })

    await a.revokeSessions("u-ada")
    expect(await a.auth(requestFrom(laptop))).toBeNull()
    // The thief's next read lands on B, whose copy still honours it (the documented cacheMs window) and slides it.
    const read = await sessionRead(b, requestFrom(laptop))
    expect(read.session).toMatchObject({ user: { name: "ada" } })
    const resealed = read.setCookies.filter((line) => line.startsWith(`${SECURE}=`) && !/max-age=0/i.test(line))
    expect(resealed).toHaveLength(1)
    laptop.acceptCookies(ORIGIN, read.setCookies)
    // The re-sealed cookie is as revoked as the one it replaced: A, which knows the revocation, signs it out.
    expect(await a.auth(requestFrom(laptop))).toBeNull()
    expect((await sessionRead(a, requestFrom(laptop))).session).toBeNull()
  })
})
