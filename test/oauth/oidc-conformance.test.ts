// OpenID Connect relying-party conformance (issue 13) and the id_token `iat` bound (issue 12, item
// 14), against real oidc-provider servers: one that rotates its signing key while it runs, one that
// signs its userinfo responses. What oidc-provider cannot produce (an unsigned id_token, a token
// from the future) is made by rewriting its token response on the way to the app.
import { decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, SignJWT, UnsecuredJWT } from "jose"
import { afterEach, describe, expect, it } from "vitest"
import { OAuthProtocolError } from "../../src/errors.js"
import { finishSignIn } from "../../src/oauth/finish.js"
import { app, csrf, postForm, session } from "../handler/support.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { startRotatingOidcServer, type RotatingOidcServer } from "../servers/rotating-oidc-provider.js"
import { callbackFor, customTokenRequest, oidcConfig, reachCallback, rejection, SECRET, signIn } from "./support.js"

const running: (OidcServer | RotatingOidcServer)[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

const rpClient = (extra: Record<string, unknown> = {}) => ({ client_id: "rp", client_secret: "rp-secret", redirect_uris: [callbackFor("op"), "http://localhost:3000/auth/callback/op"], grant_types: ["authorization_code"], ...extra })

/** A fetch of its own, so each test starts with cold discovery and JWKS caches. */
const ownFetch = (): typeof fetch => (input, init) => fetch(input, init)

/** A fetch that rewrites the id_token of every token response with `reissue`. */
function rewritingIdToken(reissue: (idToken: string) => Promise<string>): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).endsWith("/token")) return response
    const body = (await response.json()) as { id_token: string }
    return Response.json({ ...body, id_token: await reissue(body.id_token) }, { headers: { "cache-control": "no-store" } })
  }
}

async function attackerKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("RS256")
  return { privateKey, kid, jwk: { ...(await exportJWK(publicKey)), kid } }
}

describe("OP signing-key rotation (OIDC Core §10.1.1)", () => {
  it("an id_token signed with a key rotated in right after the last JWKS fetch signs in, after one re-fetch", async () => {
    const server = await startRotatingOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer)
    const fetchImplementation = ownFetch()
    const first = await signIn(provider, "op", { fetch: fetchImplementation })
    expect(decodeProtectedHeader(first.result.tokens.id_token!).kid).toBe("key-1")
    expect(server.jwksRequests()).toBe(1)

    await server.rotate()
    expect(server.currentKid).toBe("key-2")
    const second = await signIn(provider, "op", { fetch: fetchImplementation })
    expect(decodeProtectedHeader(second.result.tokens.id_token!).kid).toBe("key-2")
    expect(second.result.user.email).toBe("ada@example.com")
    expect(server.jwksRequests()).toBe(2)
  })

  it("unknown kids force at most one re-fetch per interval, and are refused", async () => {
    const server = await startRotatingOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer)
    // One fetch for every sign-in here, so one cached key set; it re-signs the id_token with
    // `forger` once one is set.
    let forger: Awaited<ReturnType<typeof attackerKey>> | undefined
    const forging = rewritingIdToken(async (idToken) =>
      forger ? new SignJWT(decodeJwt(idToken)).setProtectedHeader({ alg: "RS256", kid: forger.kid }).sign(forger.privateKey) : idToken
    )
    await signIn(provider, "op", { fetch: forging })
    expect(server.jwksRequests()).toBe(1)

    const madeUp = ["made-up-1", "made-up-2", "made-up-3"]
    const refetches: number[] = []
    for (const kid of madeUp) {
      forger = await attackerKey(kid)
      const before = server.jwksRequests()
      const { callback } = await reachCallback(provider, "op", { fetch: forging })
      const error = await rejection(finishSignIn(provider, callback, { redirectUri: callbackFor("op"), secret: SECRET, fetch: forging }))
      expect(error).toBeInstanceOf(OAuthProtocolError)
      refetches.push(server.jwksRequests() - before)
    }
    expect(refetches).toHaveLength(madeUp.length)
    // The first unknown kid forces one re-fetch; the next ones, within the interval, force none.
    expect(refetches).toEqual([1, 0, 0])
  })
})

describe("signed userinfo (OIDC Core §5.3.4)", () => {
  async function signingServer() {
    const server = await startOidcServer({
      clients: [rpClient({ userinfo_signed_response_alg: "RS256" })] as never,
      configuration: { features: { devInteractions: { enabled: false }, jwtUserinfo: { enabled: true } } },
    })
    running.push(server)
    return server
  }
  const userinfoProvider = (server: OidcServer) => oidcConfig(server.issuer, { idToken: false, client: { userinfo_signed_response_alg: "RS256" } })

  it("a signed userinfo response that verifies against the provider's JWKS gives the profile", async () => {
    const server = await signingServer()
    const types: string[] = []
    const recording: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (String(input).endsWith("/me")) types.push(response.headers.get("content-type") ?? "")
      return response
    }
    const { result } = await signIn(userinfoProvider(server), "op", { fetch: recording })
    expect(types).toHaveLength(1)
    expect(types[0]).toMatch(/^application\/jwt/)
    expect(result.profile).toMatchObject({ sub: "user-1", email: "ada@example.com" })
  })

  it("a signed userinfo response signed by a key outside the JWKS is refused", async () => {
    const server = await signingServer()
    const forger = await attackerKey("test-signing-key")
    const forging: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/me")) return response
      const claims = { ...decodeJwt(await response.text()), email: "attacker@example.com" }
      const forged = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", kid: forger.kid }).sign(forger.privateKey)
      return new Response(forged, { headers: { "content-type": "application/jwt" } })
    }
    const provider = userinfoProvider(server)
    const { callback } = await reachCallback(provider, "op", { fetch: forging })
    const error = await rejection(finishSignIn(provider, callback, { redirectUri: callbackFor("op"), secret: SECRET, fetch: forging }))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("signed userinfo response does not verify")
  })
})

describe("unsigned (alg none) id_tokens (OIDC Core §2, §3.1.3.7)", () => {
  const unsigned = rewritingIdToken(async (idToken) => new UnsecuredJWT(decodeJwt(idToken)).encode())

  it("are refused by default, with an error that says what is refused and why", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer)
    const { callback } = await reachCallback(provider, "op", { fetch: unsigned })
    const error = await rejection(finishSignIn(provider, callback, { redirectUri: callbackFor("op"), secret: SECRET, fetch: unsigned }))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toMatch(/unsigned \(alg "none"\) and is refused: nothing proves the provider issued it/)
  })

  it("are accepted from the token endpoint when the client registered id_token_signed_response_alg none", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer, { client: { id_token_signed_response_alg: "none" } })
    const { result } = await signIn(provider, "op", { fetch: unsigned })
    expect(decodeProtectedHeader(result.tokens.id_token!).alg).toBe("none")
    expect(result.user.email).toBe("ada@example.com")
  })

  it("are refused, even so registered, from a custom token request the flow cannot vouch for", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer, {
      client: { id_token_signed_response_alg: "none" },
      token: {
        request: customTokenRequest((tokens) => ({ ...tokens, id_token: new UnsecuredJWT(decodeJwt(tokens.id_token)).encode() })),
      },
    })
    const { callback } = await reachCallback(provider, "op")
    const error = await rejection(finishSignIn(provider, callback, { redirectUri: callbackFor("op"), secret: SECRET }))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("did not come from the token endpoint itself")
  })
})

describe("id_token iat in the future (issue 12, item 14), through createAuth's handler", () => {
  async function signInWithIatAhead(seconds: number) {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const ahead = rewritingIdToken((idToken) => {
      const claims = decodeJwt(idToken)
      const iat = Math.floor(Date.now() / 1000) + seconds
      return new SignJWT({ ...claims, iat, exp: iat + 600 }).setProtectedHeader({ alg: "RS256", kid: "test-signing-key" }).sign(server.signingKey)
    })
    const errors: Error[] = []
    const { browser } = app({ providers: [oidcConfig(server.issuer)], fetch: ahead, logger: { error: (error) => void errors.push(error) } })
    const { url } = await postForm(browser, "/auth/signin/op", { csrfToken: await csrf(browser) })
    return { url, errors, session: await session(browser) }
  }

  it("an iat 5 minutes ahead is refused with a typed error that says why", async () => {
    const { url, errors, session: signedIn } = await signInWithIatAhead(300)
    expect(url.pathname).toBe("/auth/error")
    expect(signedIn).toBeNull()
    expect(errors.length).toBeGreaterThan(0)
    const refused = errors.find((error) => error instanceof OAuthProtocolError)
    expect(refused?.message).toMatch(/iat lies \d+ s in the future, beyond the 30 s clock tolerance/)
  })

  it("an iat 10 s ahead is within the clock tolerance and signs in", async () => {
    const { url, errors, session: signedIn } = await signInWithIatAhead(10)
    expect(errors).toEqual([])
    expect(url.pathname).toBe("/")
    expect(signedIn).toMatchObject({ user: { email: "ada@example.com" } })
  })
})
