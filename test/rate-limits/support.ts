// An app with rate limits under test: createAuth's handler with a credentials provider that counts
// how often its `authorize` really ran (what a limit must stop), and an email provider that counts
// the mails it would send. Each attempt is a browser's: GET /csrf for the token and its cookie,
// then the form POST, with the client address in whichever header the proxy setting reads.
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import Credentials from "../../src/providers/credentials.js"
import Email from "../../src/providers/email/email.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import type { RateLimitOptions } from "../../src/rate-limits/types.js"

export const APP = "https://app.example.com"
export const SECRET = "latchkey-rate-limit-test-secret-0123456789"
export const PASSWORDS: Record<string, string> = { "ada@example.com": "lovelace", "bob@example.com": "babbage" }

/** The app; `limits` are the plug-in's options (default: the defaults, on), `config` the rest of createAuth's. */
export function limitedApp(config: Partial<AuthConfig> & { limits?: RateLimitOptions } = {}) {
  const { limits = {}, ...rest } = config
  const seen = { authorize: 0, mails: [] as string[], warnings: [] as { code: string; message: string }[], events: [] as unknown[] }
  const credentials = Credentials({
    credentials: { email: {}, password: {} },
    authorize: ({ email, password }) => {
      seen.authorize++
      return typeof email === "string" && PASSWORDS[email.toLowerCase()] === password ? { id: email, email } : null
    },
  })
  const email = Email({ server: "smtp://unused", from: "auth@example.com", sendVerificationRequest: async ({ url }) => void seen.mails.push(url) })
  const auth = createAuth({
    providers: [credentials, email],
    adapter: memoryAdapter(),
    session: { strategy: "jwt" },
    secret: SECRET,
    env: { AUTH_URL: APP },
    trustedProxy: "cloudflare",
    logger: { warn: (code, meta) => void seen.warnings.push({ code, message: (meta as { message?: string } | undefined)?.message ?? "" }), error: () => {} },
    events: { rateLimited: (event) => void seen.events.push(event) },
    rateLimits: rateLimits(limits),
    ...rest,
  })
  return { auth, seen }
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a browser would send them back. */
export function cookiesOf(response: Response): string {
  return response.headers.getSetCookie().map((line) => line.split(";")[0]!).join("; ")
}

export interface Attempt {
  email?: string
  password?: string
  /** The client address, sent in `cf-connecting-ip` (the "cloudflare" setting); none when undefined. */
  ip?: string
  path?: string
  headers?: Record<string, string>
  fields?: Record<string, string>
}

/** A CSRF token and its cookie, fetched as the client `headers` describe. */
export async function csrfFor(auth: { handler: (request: Request) => Promise<Response> }, headers: Record<string, string>) {
  const response = await auth.handler(new Request(`${APP}/auth/csrf`, { headers }))
  const { csrfToken } = (await response.json()) as { csrfToken: string }
  return { csrfToken, cookie: cookiesOf(response) }
}

/** One sign-in attempt as a browser's form post; answers the handler's response, and the cookie the browser sent with it. */
export async function attempt(auth: { handler: (request: Request) => Promise<Response> }, options: Attempt = {}): Promise<Response & { sentCookie: string }> {
  const headers: Record<string, string> = { ...(options.ip === undefined ? {} : { "cf-connecting-ip": options.ip }), ...options.headers }
  const { csrfToken, cookie } = await csrfFor(auth, headers)
  const fields = { email: options.email ?? "ada@example.com", password: options.password ?? "wrong", csrfToken, ...options.fields }
  const response = await auth.handler(
    new Request(`${APP}${options.path ?? "/auth/callback/credentials"}`, {
      method: "POST",
      headers: { ...headers, cookie, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(fields).toString(),
    }),
  )
  return Object.assign(response, { sentCookie: cookie })
}

/** Whether a response is a finished sign-in: a redirect onward that sets the session cookie. */
export function signedIn(response: Response): boolean {
  return response.status === 302 && response.headers.getSetCookie().some((line) => line.startsWith("__Secure-authjs.session-token="))
}
