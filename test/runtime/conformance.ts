// The runtime conformance suite, written once and run on every server runtime: Node (20, 22, 24),
// Vercel Edge (edge-runtime) and Cloudflare Workers (workerd through miniflare). It uses only
// Web-standard APIs and imports latchkey by package name, so each runtime resolves the package
// through its own export conditions. Each check reports instead of throwing, so a host can show
// exactly which one failed where.
import { createAuth } from "latchkey"
import { cryptoBackend, decode, encode, getToken, setCookieHeaders } from "latchkey/jwt"
import { finishSignIn, startSignIn } from "latchkey/oauth"

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

/** A cookie-keeping fetch that follows redirects, stopping before `stopAt`. */
function browser() {
  const jar = new Map<string, Map<string, string>>()
  const store = (origin: string, response: Response) => {
    const cookies = jar.get(origin) ?? new Map<string, string>()
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!
      const at = pair.indexOf("=")
      cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    jar.set(origin, cookies)
  }
  const cookieHeader = (origin: string) => [...(jar.get(origin) ?? [])].map(([name, value]) => `${name}=${value}`).join("; ")
  return {
    accept: (origin: string, setCookies: string[]) => store(origin, new Response(null, { headers: setCookies.map((line) => ["set-cookie", line] as [string, string]) })),
    cookieHeader,
    async navigate(start: string, stopAt: string): Promise<string> {
      let url = start
      for (let hop = 0; hop < 20; hop++) {
        if (url.startsWith(stopAt)) return url
        const origin = new URL(url).origin
        const response = await fetch(url, { redirect: "manual", headers: { cookie: cookieHeader(origin) } })
        store(origin, response)
        const location = response.headers.get("location")
        await response.body?.cancel()
        if (!location) throw new Error(`flow stopped at ${url} (${response.status})`)
        url = new URL(location, url).href
      }
      throw new Error("too many redirects")
    },
  }
}

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
    const agent = browser()
    const appOrigin = new URL(input.redirectUri).origin
    agent.accept(appOrigin, cookies)
    const callback = await agent.navigate(url.href, input.redirectUri)
    const request = new Request(callback, { headers: { cookie: agent.cookieHeader(appOrigin) } })
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
    const current = await handler(new Request("https://app.example/auth/session", { headers: { cookie: session.split(";")[0]! } }))
    const body = (await current.json()) as { user?: { name?: string } } | null
    assert(body?.user?.name === "Ada", "session not readable")
  }, checks)

  return { backend: cryptoBackend, checks, encodedHere }
}
