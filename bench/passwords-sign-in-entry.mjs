// A whole password sign-in as a Worker runs it, for bench/passwords.mjs: createAuth with the
// Password provider, the passwords plug-in and memoryAdapter (defaults otherwise: rate limits on),
// driven by POST { op }. "noop" is what a browser does before it signs in (GET csrf, kept here),
// so the benchmark's figure, net of it, is the sign-in POST alone; the first noop also signs the
// user up. "verify" is POST callback/password with the right password: verify, session, cookie.
// "hash" is a sign-up of a fresh address (verification off, so it signs in too).
import { createAuth } from "latchkey"
import { memoryAdapter } from "latchkey/adapters"
import { passwords } from "latchkey/passwords"
import Password from "latchkey/providers/password"

const ORIGIN = "https://app.example.com"
const EMAIL = "ada@example.com"
const { handler } = createAuth({
  secret: "latchkey-bench-sign-in-secret-0123456789",
  trustHost: true,
  env: {},
  adapter: memoryAdapter(),
  providers: [Password({ requireEmailVerification: false, sendEmail: async () => {} })],
  passwords,
})

let csrf
let signUps = 0

/** GET csrf: the token and the cookie a browser would hold. */
async function fetchCsrf() {
  const response = await handler(new Request(`${ORIGIN}/auth/csrf`))
  const { csrfToken } = await response.json()
  return { csrfToken, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") }
}

/** A form POST as latchkey/client sends it (JSON answer), with the CSRF token and cookie. */
async function post(path, fields) {
  const body = new URLSearchParams({ ...fields, csrfToken: csrf.csrfToken, callbackUrl: `${ORIGIN}/home` })
  const response = await handler(new Request(`${ORIGIN}/auth/${path}`, { method: "POST", body, headers: { "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1", cookie: csrf.cookie, origin: ORIGIN } }))
  const answer = await response.json()
  const signedIn = response.status === 200 && response.headers.getSetCookie().some((line) => /session-token=[^;]+/.test(line))
  if (!signedIn) throw new Error(`${path} did not sign in: HTTP ${response.status} ${JSON.stringify(answer)}`)
  return { ok: true }
}

async function handle(request) {
  const { op, password } = await request.json()
  if (op === "noop") {
    const first = csrf === undefined
    csrf = await fetchCsrf()
    if (first) await post("password/sign-up", { email: EMAIL, password })
    return Response.json({ ok: true })
  }
  if (op === "hash") return Response.json(await post("password/sign-up", { email: `user${++signUps}@example.com`, password }))
  return Response.json(await post("callback/password", { email: EMAIL, password }))
}

export default { fetch: handle }
