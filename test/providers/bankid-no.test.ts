// BankID Norway through createAuth's handler, against a BankID-shaped OP: the realm's discovery
// document names a userinfo endpoint on another host (userinfo.current.bankid.no), whose answer
// is a JWT issued by the userinfo service itself (its `iss`) for the client (its `aud`), signed
// with the realm's published keys (https://developer.bankid.no/bankid-oidc-provider/). The OP is
// the provider double (test/servers/provider-double.ts) for discovery, JWKS, token and userinfo;
// its authorization endpoint is played here, as a user who signs in at once.
import { randomUUID } from "node:crypto"
import { exportJWK, generateKeyPair, SignJWT } from "jose"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import type { LoggerInstance } from "../../src/types.js"
import BankIDNorway from "../../src/providers/bankid-no.js"
import { APP, app, csrf, postForm, session } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { startProviderDouble, type ProviderDouble } from "../servers/provider-double.js"

const ISSUER = "https://auth.current.bankid.no/auth/realms/current"
const AUTHORIZE = `${ISSUER}/precheck/auth`
const TOKEN = `${ISSUER}/protocol/openid-connect/token`
const JWKS = `${ISSUER}/protocol/openid-connect/certs`
const USERINFO = "https://userinfo.current.bankid.no/userinfo"
const USERINFO_ISSUER = "https://userinfo.current.bankid.no"
const CLIENT = { clientId: "bankid-client", clientSecret: "bankid-secret" }
const SUB = "0a2b8f0e-4c1d-4e7b-9f3a-5d6c7b8a9e0f"
const KARI = { sub: SUB, name: "Kari Nordmann", given_name: "Kari", family_name: "Nordmann", birthdate: "1990-02-17", email: "kari@example.no" }

let double: ProviderDouble
let realmKey: CryptoKey
let attackerKey: CryptoKey

/** What the userinfo endpoint answers, set by each test before it signs in. */
let userinfoAnswer: { body: string; contentType: string }

beforeAll(async () => {
  double = await startProviderDouble()
  const realm = await generateKeyPair("ES256")
  realmKey = realm.privateKey
  attackerKey = (await generateKeyPair("ES256")).privateKey
  double.routes.set(`${ISSUER}/.well-known/openid-configuration`, {
    issuer: ISSUER,
    authorization_endpoint: AUTHORIZE,
    token_endpoint: TOKEN,
    userinfo_endpoint: USERINFO,
    jwks_uri: JWKS,
    response_types_supported: ["code"],
    subject_types_supported: ["public"],
    id_token_signing_alg_values_supported: ["ES256", "RS256"],
    code_challenge_methods_supported: ["S256"],
  })
  double.routes.set(JWKS, { keys: [{ ...(await exportJWK(realm.publicKey)), kid: "realm-key", alg: "ES256", use: "sig" }] })
})
afterAll(() => double.close())

beforeEach(() => {
  double.requests.length = 0
  double.rejections.length = 0
  double.routes.set(USERINFO, () => userinfoAnswer)
})

/** A compact JWS over `claims`, with `alg` and `key` as given (none: no signature). */
async function jws(claims: Record<string, unknown>, key: CryptoKey | "none", kid = "realm-key"): Promise<string> {
  if (key === "none") {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url")
    return `${part({ alg: "none", typ: "JWT" })}.${part(claims)}.`
  }
  return new SignJWT(claims).setProtectedHeader({ alg: "ES256", kid, typ: "JWT" }).setIssuedAt().setExpirationTime("5m").sign(key)
}

/** The userinfo JWT BankID documents: issued by the userinfo service, for the client. */
const userinfoClaims = (overrides: Record<string, unknown> = {}) => ({ ...KARI, iss: USERINFO_ISSUER, aud: CLIENT.clientId, ...overrides })

/**
 * The BankID authorization endpoint: signs Kari in and redirects to the callback with a fresh code,
 * which the token endpoint then exchanges once for an id_token signed with the realm key.
 */
async function authorize(url: URL): Promise<Response> {
  const code = `code-${randomUUID()}`
  const nonce = url.searchParams.get("nonce")
  const idToken = await new SignJWT({ sub: SUB, ...(nonce ? { nonce } : {}) })
    .setProtectedHeader({ alg: "ES256", kid: "realm-key" })
    .setIssuer(ISSUER)
    .setAudience(CLIENT.clientId)
    .setIssuedAt()
    .setExpirationTime("5m")
    .sign(realmKey)
  const grant = {
    rules: { clientAuth: "client_secret_basic" as const },
    ...CLIENT,
    code,
    redirectUri: url.searchParams.get("redirect_uri"),
    codeChallenge: url.searchParams.get("code_challenge") ?? undefined,
  }
  double.routes.set(TOKEN, double.tokenEndpoint(grant, { access_token: "bankid-access-token", token_type: "Bearer", expires_in: 300, id_token: idToken }))
  const callback = new URL(url.searchParams.get("redirect_uri")!)
  callback.searchParams.set("code", code)
  callback.searchParams.set("state", url.searchParams.get("state") ?? "")
  return new Response(null, { status: 302, headers: { location: callback.href } })
}

/** An app with BankID configured as the docs say, its provider requests counted, and a browser. */
function bankidApp() {
  const errors: Error[] = []
  const logger: LoggerInstance = { error: (error) => void errors.push(error), warn: () => {}, debug: () => {} }
  const requested: string[] = []
  const recording: typeof fetch = (input, init) => {
    requested.push(new URL(input instanceof Request ? input.url : String(input)).href)
    return double.fetch(input, init)
  }
  const auth = app({ providers: [BankIDNorway({ environment: "test", ...CLIENT })], fetch: recording, logger })
  const browser = new TestBrowser(undefined, (input, init) => {
    const url = new URL(String(input))
    return url.href.startsWith(AUTHORIZE) ? authorize(url) : auth.dispatch(input, init)
  })
  const signIn = async () => postForm(browser, "/auth/signin/bankid-no", { csrfToken: await csrf(browser) })
  return { browser, signIn, errors, requested }
}

/** The latchkey error codes in `error`'s cause chain. */
function codes(error: unknown): string[] {
  const found: string[] = []
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") found.push(code)
  }
  return found
}

describe("BankID Norway through the verified userinfo path", () => {
  it("signs in with a userinfo JWT the userinfo service issued and the realm's key signed", async () => {
    userinfoAnswer = { body: await jws(userinfoClaims(), realmKey), contentType: "application/jwt" }
    const { browser, signIn, errors } = bankidApp()
    const { url } = await signIn()
    expect(errors).toEqual([])
    expect(url.href).toBe(`${APP}/`)
    expect(await session(browser)).toMatchObject({ user: { name: "Kari Nordmann", email: "kari@example.no", image: null } })
    const userinfo = double.requests.filter((request) => request.url === USERINFO)
    expect(userinfo.map((request) => request.headers.authorization)).toEqual(["Bearer bankid-access-token"])
  })

  it("signs in when the signed answer is labelled application/json: it is still verified as a JWT", async () => {
    userinfoAnswer = { body: await jws(userinfoClaims(), realmKey), contentType: "application/json" }
    const { browser, signIn, errors } = bankidApp()
    await signIn()
    expect(errors).toEqual([])
    expect(await session(browser)).toMatchObject({ user: { name: "Kari Nordmann" } })
  })

  const SIGNATURE = /does not verify against the provider's published keys/
  const forgeries: [string, () => Promise<{ body: string; contentType: string }>, RegExp][] = [
    ["an unsigned JWT (alg none)", async () => ({ body: await jws(userinfoClaims({ name: "Mallory" }), "none"), contentType: "application/jwt" }), /unexpected JWT "alg"/],
    ["a JWT signed with another key under the realm key's kid", async () => ({ body: await jws(userinfoClaims({ name: "Mallory" }), attackerKey), contentType: "application/jwt" }), SIGNATURE],
    [
      "a JWT with made-up signature bytes",
      async () => ({ body: `${(await jws(userinfoClaims({ name: "Mallory" }), realmKey)).split(".").slice(0, 2).join(".")}.c2lnbmVkLWJ5LW5vYm9keQ`, contentType: "application/jwt" }),
      SIGNATURE,
    ],
    ["a JWT signed with another key, labelled application/json", async () => ({ body: await jws(userinfoClaims({ name: "Mallory" }), attackerKey), contentType: "application/json" }), SIGNATURE],
    ["a realm-signed JWT issued by a host other than the userinfo service's", async () => ({ body: await jws(userinfoClaims({ iss: "https://evil.example" }), realmKey), contentType: "application/jwt" }), /unexpected JWT "iss"/],
    ["a realm-signed JWT for another client", async () => ({ body: await jws(userinfoClaims({ aud: "another-client" }), realmKey), contentType: "application/jwt" }), /unexpected JWT "aud"/],
    ["a realm-signed JWT about another user", async () => ({ body: await jws(userinfoClaims({ sub: "someone-else" }), realmKey), contentType: "application/jwt" }), /"sub" property value/],
  ]

  it.for(forgeries)("refuses %s with a typed protocol error, and no session", async ([, forge, reason]) => {
    userinfoAnswer = await forge()
    const { browser, signIn, errors } = bankidApp()
    const { url } = await signIn()
    expect(url.pathname).toBe("/auth/error")
    expect(await session(browser)).toBeNull()
    expect(errors.flatMap(codes)).toContain("ERR_OAUTH_PROTOCOL")
    expect(errors.map((error) => error.message).join("\n")).toMatch(reason)
  })

  it("fetches the discovery document once for many sign-ins: the flow's cached discovery names the userinfo endpoint", async () => {
    userinfoAnswer = { body: await jws(userinfoClaims(), realmKey), contentType: "application/jwt" }
    const { signIn, errors, requested } = bankidApp()
    for (let run = 0; run < 3; run++) await signIn()
    expect(errors).toEqual([])
    const discovery = requested.filter((url) => url.endsWith("/.well-known/openid-configuration"))
    const userinfo = requested.filter((url) => url === USERINFO)
    console.log(`bankid: 3 sign-ins made ${discovery.length} discovery request(s) and ${userinfo.length} userinfo request(s)`)
    expect(discovery).toEqual([`${ISSUER}/.well-known/openid-configuration`])
    expect(userinfo).toHaveLength(3)
  })
})
