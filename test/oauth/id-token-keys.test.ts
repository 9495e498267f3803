// How latchkey verifies what a provider signs (id_tokens at sign-in, after a custom token request
// and at refresh), against real oidc-provider servers: which keys and algorithms it accepts, how its
// cached JWKS follows a key rotation without letting made-up kids make it fetch on every sign-in,
// and that every JWKS download goes through the provider's bounded fetch. The id_token signature
// is checked by oauth4webapi against the cached set (src/oauth/jwks.ts); HMAC id_tokens, which
// oauth4webapi cannot check, by WebCrypto (src/oauth/id-token.ts).
import { decodeJwt, decodeProtectedHeader, generateKeyPair, SignJWT } from "jose"
import { afterEach, describe, expect, it } from "vitest"
import { OAuthProtocolError } from "../../src/errors.js"
import { finishSignIn } from "../../src/oauth/finish.js"
import { refreshTokens } from "../../src/oauth/tokens.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { startRotatingOidcServer, type RotatingOidcServer } from "../servers/rotating-oidc-provider.js"
import { callbackFor, customTokenRequest, oidcConfig, reachCallback, rejection, SECRET, signIn } from "./support.js"

const running: (OidcServer | RotatingOidcServer)[] = []
afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.close()))
})

const rpClient = (extra: Record<string, unknown> = {}) => ({
  client_id: "rp",
  client_secret: "rp-secret",
  redirect_uris: [callbackFor("op")],
  grant_types: ["authorization_code", "refresh_token"],
  ...extra,
})

async function rotatingServer(): Promise<RotatingOidcServer> {
  const server = await startRotatingOidcServer({ clients: [rpClient()] as never })
  running.push(server)
  return server
}

/** A fetch of its own, so each test starts with cold discovery and JWKS caches. */
const ownFetch = (): typeof fetch => (input, init) => fetch(input, init)

/** A fetch that rewrites the id_token of every token response with `reissue` while it is set. */
function rewritingIdToken(state: { reissue?: (idToken: string) => Promise<string> }): typeof fetch {
  return async (input, init) => {
    const response = await fetch(input, init)
    if (!String(input).endsWith("/token") || state.reissue === undefined) return response
    const body = (await response.json()) as { id_token: string }
    return Response.json({ ...body, id_token: await state.reissue(body.id_token) }, { headers: { "cache-control": "no-store" } })
  }
}

/** Re-signs an id_token's claims with a fresh key of the attacker's, under `kid`. */
async function resignWithAttackerKey(idToken: string, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair("RS256")
  return new SignJWT(decodeJwt(idToken)).setProtectedHeader({ alg: "RS256", kid }).sign(privateKey)
}

const finish = (provider: OIDCConfig, callback: Request, fetchImplementation?: typeof fetch, extra: { timeout?: number } = {}) =>
  finishSignIn(provider, callback, { redirectUri: callbackFor("op"), secret: SECRET, fetch: fetchImplementation, ...extra })

describe("the provider's key set across a rotation (OIDC Core §10.1.1)", () => {
  it("after a rotation, sign-ins within the minute verify with exactly one extra JWKS fetch, however many follow", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const fetchImplementation = ownFetch()
    await signIn(provider, "op", { fetch: fetchImplementation })
    expect(server.jwksRequests()).toBe(1)

    await server.rotate()
    for (let i = 0; i < 3; i++) {
      const { result } = await signIn(provider, "op", { fetch: fetchImplementation })
      expect(decodeProtectedHeader(result.tokens.id_token!).kid).toBe("key-2")
      expect(result.user.email).toBe("ada@example.com")
      // The re-fetch the first one forced is the set every later sign-in reads.
      expect(server.jwksRequests()).toBe(2)
    }
  })

  it("a made-up kid twice in a row forces at most one re-fetch, and genuine tokens still verify from the cache", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const state: { reissue?: (idToken: string) => Promise<string> } = {}
    const forging = rewritingIdToken(state)
    await signIn(provider, "op", { fetch: forging })
    expect(server.jwksRequests()).toBe(1)

    state.reissue = (idToken) => resignWithAttackerKey(idToken, "made-up")
    for (const expected of [2, 2]) {
      const { callback } = await reachCallback(provider, "op", { fetch: forging })
      const error = await rejection(finish(provider, callback, forging))
      expect(error).toBeInstanceOf(OAuthProtocolError)
      expect(String(error.message)).toContain("does not verify against the provider's published keys")
      expect(server.jwksRequests()).toBe(expected)
    }

    state.reissue = undefined
    const { result } = await signIn(provider, "op", { fetch: forging })
    expect(result.user.email).toBe("ada@example.com")
    expect(server.jwksRequests()).toBe(2)
  })

  it("a made-up kid on a cold cache costs one download: the set just fetched is not fetched again", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const forging = rewritingIdToken({ reissue: (idToken) => resignWithAttackerKey(idToken, "made-up") })
    const { callback } = await reachCallback(provider, "op", { fetch: forging })
    const error = await rejection(finish(provider, callback, forging))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(server.jwksRequests()).toBe(1)
  })

  it("concurrent cold sign-ins share one JWKS download", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    // The JWKS answers slowly, so the verifications certainly overlap.
    const slowKeys: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/jwks")) await new Promise((resolve) => setTimeout(resolve, 300))
      return fetch(input, init)
    }
    const callbacks = await Promise.all([0, 1, 2].map(async () => (await reachCallback(provider, "op", { fetch: slowKeys })).callback))
    const results = await Promise.all(callbacks.map((callback) => finish(provider, callback, slowKeys)))
    expect(results.map((result) => result.user.email)).toEqual(["ada@example.com", "ada@example.com", "ada@example.com"])
    expect(server.jwksRequests()).toBe(1)
  })

  // jose read any body as the key set; oauth4webapi looks at the media type only when the body is
  // not JSON. This pins that a provider labelling its JWKS oddly keeps working.
  it("a JWKS served with a media type other than JSON is still read as the key set", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const plainKeys: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/jwks")) return response
      return new Response(await response.text(), { headers: { "content-type": "text/plain; charset=utf-8" } })
    }
    const { result } = await signIn(provider, "op", { fetch: plainKeys })
    expect(result.user.email).toBe("ada@example.com")
  })

  it("a valid JWKS larger than the response bound is refused, not read", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const paddedKeys: typeof fetch = async (input, init) => {
      const response = await fetch(input, init)
      if (!String(input).endsWith("/jwks")) return response
      return Response.json({ ...((await response.json()) as object), padding: "x".repeat(2 * 1024 * 1024) })
    }
    const { callback } = await reachCallback(provider, "op", { fetch: paddedKeys })
    const error = await rejection(finish(provider, callback, paddedKeys))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String((error.cause as Error | undefined)?.message)).toContain("larger than 1048576 bytes")
  })

  it("a JWKS endpoint slower than the timeout is abandoned at the timeout, and the sign-in refused", async () => {
    const server = await rotatingServer()
    const provider = oidcConfig(server.issuer)
    const slowKeys: typeof fetch = async (input, init) => {
      if (String(input).endsWith("/jwks")) {
        await new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, 3_000)
          init?.signal?.addEventListener("abort", () => (clearTimeout(timer), reject(init.signal!.reason)))
        })
      }
      return fetch(input, init)
    }
    const { callback } = await reachCallback(provider, "op", { fetch: slowKeys })
    const started = Date.now()
    const error = await rejection(finish(provider, callback, slowKeys, { timeout: 500 }))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(Date.now() - started).toBeLessThan(2_500)
  })
})

describe("HMAC id_tokens", () => {
  async function hmacServer() {
    // The OP advertises HS256 and MACs this client's id_tokens with its secret, as LINE does.
    const server = await startOidcServer({
      clients: [rpClient({ id_token_signed_response_alg: "HS256" })] as never,
      configuration: { enabledJWA: { idTokenSigningAlgValues: ["RS256", "HS256"] } },
    })
    running.push(server)
    return server
  }

  it("an HS256 id_token from a provider whose record does not declare HS256 is refused, even though the OP advertises it", async () => {
    const server = await hmacServer()
    const provider = oidcConfig(server.issuer)
    const { callback } = await reachCallback(provider, "op")
    const error = await rejection(finish(provider, callback))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("does not verify against the provider's published keys")
  })

  it("a declared HS256 id_token MACed with another secret is refused", async () => {
    const server = await hmacServer()
    const provider = oidcConfig(server.issuer, { client: { id_token_signed_response_alg: "HS256" } })
    const state = {
      reissue: (idToken: string) => new SignJWT(decodeJwt(idToken)).setProtectedHeader({ alg: "HS256" }).sign(new TextEncoder().encode("not-the-client-secret")),
    }
    const forging = rewritingIdToken(state)
    const { callback } = await reachCallback(provider, "op", { fetch: forging })
    const error = await rejection(finish(provider, callback, forging))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("does not verify with the client secret")
  })

  it("a declared HS256 id_token MACed with the client secret signs in", async () => {
    const server = await hmacServer()
    const provider = oidcConfig(server.issuer, { client: { id_token_signed_response_alg: "HS256" } })
    const { result } = await signIn(provider, "op")
    expect(decodeProtectedHeader(result.tokens.id_token!).alg).toBe("HS256")
    expect(result.user.email).toBe("ada@example.com")
  })
})

describe("id_tokens outside the authorization-code response are verified too", () => {
  it("from a custom token request: an id_token signed by a key outside the JWKS is refused, and the error holds no token", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    let forged = ""
    const provider = oidcConfig(server.issuer, {
      token: {
        request: customTokenRequest(async (tokens) => {
          forged = await resignWithAttackerKey(tokens.id_token, "test-signing-key")
          return { ...tokens, id_token: forged }
        }),
      },
    })
    const { callback } = await reachCallback(provider, "op")
    const error = await rejection(finish(provider, callback))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("does not verify against the provider's published keys")
    expect(forged).not.toBe("")
    const logged = JSON.stringify({ message: error.message, cause: error.cause })
    expect(logged).not.toContain(forged.split(".")[1])
    expect(logged).not.toContain(forged.split(".")[2])
  })

  it("from a refresh: an id_token signed by a key outside the JWKS is refused", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer)
    const state: { reissue?: (idToken: string) => Promise<string> } = {}
    const forging = rewritingIdToken(state)
    const { result } = await signIn(provider, "op", { fetch: forging })
    expect(typeof result.tokens.refresh_token).toBe("string")
    state.reissue = (idToken) => resignWithAttackerKey(idToken, "test-signing-key")
    const error = await rejection(refreshTokens(provider, result.tokens.refresh_token!, { fetch: forging }))
    expect(error).toBeInstanceOf(OAuthProtocolError)
    expect(String(error.message)).toContain("does not verify against the provider's published keys")
  })

  it("from a refresh: a genuine id_token is accepted", async () => {
    const server = await startOidcServer({ clients: [rpClient()] as never })
    running.push(server)
    const provider = oidcConfig(server.issuer)
    const { result } = await signIn(provider, "op")
    const refreshed = await refreshTokens(provider, result.tokens.refresh_token!)
    expect(typeof refreshed.id_token).toBe("string")
    expect(decodeJwt(refreshed.id_token!).sub).toBe("user-1")
  })
})
