// The runtime conformance suite, written once and run on every server runtime: Node (20, 22, 24),
// Vercel Edge (edge-runtime) and Cloudflare Workers (workerd through miniflare). It uses only
// Web-standard APIs and imports latchkey by package name, so each runtime resolves the package
// through its own export conditions. Each check reports instead of throwing, so a host can show
// exactly which one failed where.
import { createAuth } from "latchkey"
import { cryptoBackend, decode, encode, getToken, setCookieHeaders } from "latchkey/jwt"
import { finishSignIn, startSignIn } from "latchkey/oauth"
import { TestBrowser } from "../servers/browser.js"

/** What the host passes in. */
export interface ConformanceInput {
  secret: string
  /** A token @auth/core encoded for the plain cookie name, and the claims it holds. */
  authjsToken: string
  authjsClaims: Record<string, unknown>
  /** A local OpenID provider and a client registered at it. */
  issuer: string
  clientId: string
  clientSecret: string
  redirectUri: string
}

export interface ConformanceResult {
  backend: string
  checks: { name: string; ok: boolean; detail?: string }[]
  /** A token this runtime encoded, for the host to decode with @auth/core. */
  encodedHere: string
}

const SALT = "authjs.session-token"

async function check(name: string, run: () => Promise<void>, results: ConformanceResult["checks"]): Promise<void> {
  try {
    await run()
    results.push({ name, ok: true })
  } catch (error) {
    results.push({ name, ok: false, detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) })
  }
}

function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(message)
}

/** Runs every check on this runtime. */
export async function runConformance(input: ConformanceInput): Promise<ConformanceResult> {
  const checks: ConformanceResult["checks"] = []
  const encodedHere = await encode({ token: { sub: "from-runtime", name: "Runtime" }, secret: input.secret, salt: SALT })

  await check("jwt round trip", async () => {
    const claims = await decode({ token: encodedHere, secret: input.secret, salt: SALT })
    assert(claims?.sub === "from-runtime" && typeof claims.exp === "number", "round trip lost claims")
  }, checks)

  await check("decodes an @auth/core token", async () => {
    const claims = await decode({ token: input.authjsToken, secret: input.secret, salt: SALT })
    assert(Object.keys(input.authjsClaims).length > 0, "no @auth/core claims to compare")
    for (const [key, value] of Object.entries(input.authjsClaims)) assert(claims?.[key] === value, `claim ${key} differs`)
  }, checks)

  await check("getToken on a Request with chunked cookies", async () => {
    const big = await encode({ token: { sub: "chunky", pad: "x".repeat(6000) }, secret: input.secret, salt: SALT })
    const cookie = setCookieHeaders({ name: SALT, value: big }).map((line) => line.split(";")[0]).join("; ")
    const claims = await getToken({ req: new Request("https://app.example/", { headers: { cookie } }), secret: input.secret })
    assert(claims?.sub === "chunky", "chunked token not read")
  }, checks)

  await check("startSignIn and finishSignIn against a local issuer", async () => {
    const provider = {
      id: "conformance",
      name: "Conformance",
      type: "oidc" as const,
      issuer: input.issuer,
      clientId: input.clientId,
      clientSecret: input.clientSecret,
      authorization: { params: { scope: "openid email profile" } },
    }
    const { url, cookies } = await startSignIn(provider, { redirectUri: input.redirectUri, secret: input.secret })
    const browser = new TestBrowser()
    browser.acceptCookies(new URL(input.redirectUri).origin, cookies)
    const { request } = await browser.navigate(url, input.redirectUri)
    const { user } = await finishSignIn(provider, request, { redirectUri: input.redirectUri, secret: input.secret })
    assert(user.email === "ada@example.com", "sign-in returned the wrong user")
  }, checks)

  await check("createAuth credentials sign-in and session", async () => {
    const { handler } = createAuth({
      secret: input.secret,
      trustHost: true,
      env: {},
      providers: [{ id: "credentials", name: "Credentials", type: "credentials", credentials: { username: {} }, authorize: (fields) => ({ id: "u1", name: String(fields.username) }) }],
    })
    const csrf = await handler(new Request("https://app.example/auth/csrf"))
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const csrfCookie = csrf.headers.getSetCookie()[0]!.split(";")[0]!
    const signIn = await handler(
      new Request("https://app.example/auth/signin/credentials", {
        method: "POST",
        headers: { cookie: csrfCookie, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ csrfToken, username: "Ada" }),
      })
    )
    const session = signIn.headers.getSetCookie().find((line) => line.startsWith("__Secure-authjs.session-token="))
    assert(session, "no session cookie")
    // The session is bound to this browser's CSRF cookie, which goes along as a browser's would.
    const current = await handler(new Request("https://app.example/auth/session", { headers: { cookie: `${session.split(";")[0]!}; ${csrfCookie}` } }))
    const body = (await current.json()) as { user?: { name?: string } } | null
    assert(body?.user?.name === "Ada", "session not readable")
  }, checks)

  return { backend: cryptoBackend, checks, encodedHere }
}
