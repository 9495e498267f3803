// An app with password accounts under test: createAuth's handler with a Password provider whose
// sendEmail drops every mail into a mailbox, the memory adapter (or one a test passes), and a
// browser-like cookie jar that keeps the cookies the handler sets and sends them back. Responses
// are returned raw (redirects are not followed), so a test can compare two answers byte for byte.
import { createAuth, type AuthConfig } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { Adapter, VerificationToken } from "../../src/adapters/adapter.js"
import Password, { type PasswordEmail, type PasswordUserConfig } from "../../src/providers/password.js"
import { passwordsWith } from "../../src/passwords/index.js"
import type { PasswordsPlugIn } from "../../src/passwords/host.js"
import { CHEAP } from "./support.js"

export const ORIGIN = "https://app.example.com"
export const SECRET = "latchkey-password-flows-secret-0123456789"
export const GOOD = "correct horse battery staple"
export const OTHER = "another long enough passphrase"

export interface PasswordAppOptions {
  strategy?: "jwt" | "database"
  provider?: PasswordUserConfig
  config?: Partial<AuthConfig>
  adapter?: Adapter
  /** The plug-in; default: the real routes with cheap hashing (scrypt 2^10), so the flows run fast. */
  passwords?: PasswordsPlugIn
}

const cheap = passwordsWith(CHEAP)

export function passwordApp(options: PasswordAppOptions = {}) {
  const mailbox: PasswordEmail[] = []
  const errors: unknown[] = []
  const warnings: { code: string; message: string }[] = []
  const logs: string[] = []
  const adapter = (options.adapter ?? memoryAdapter()) as ReturnType<typeof memoryAdapter>
  // Every verification-token row the routes write, as a database would hold it.
  const tokenRows: VerificationToken[] = []
  const createToken = adapter.createVerificationToken.bind(adapter)
  adapter.createVerificationToken = (row) => {
    tokenRows.push(row)
    return createToken(row)
  }
  const provider = Password({ sendEmail: (mail) => void mailbox.push(mail), ...options.provider })
  const logger = {
    error: (error: Error) => {
      errors.push(error)
      logs.push(`${String(error?.message)} ${String((error as { cause?: unknown })?.cause ?? "")}`)
    },
    warn: (code: string, meta?: unknown) => {
      warnings.push({ code, message: String((meta as { message?: unknown })?.message ?? "") })
      logs.push(`${code} ${JSON.stringify(meta)}`)
    },
    debug: (code: string, meta?: unknown) => void logs.push(`${code} ${JSON.stringify(meta)}`),
  }
  const auth = createAuth({
    providers: [provider],
    adapter,
    passwords: options.passwords ?? cheap,
    secret: SECRET,
    env: { AUTH_URL: `${ORIGIN}/auth` },
    session: { strategy: options.strategy ?? "jwt" },
    logger,
    ...options.config,
  })
  /** The newest mail of `kind` to `to`. */
  const mailTo = (to: string, kind?: PasswordEmail["kind"]) => [...mailbox].reverse().find((mail) => mail.to === to && (kind === undefined || mail.kind === kind))
  return { auth, adapter, tokenRows, mailbox, errors, warnings, logs, mailTo, browser: () => new Browser(auth.handler) }
}

export interface PostOptions {
  /** Send JSON (`content-type: application/json`) instead of a form. */
  json?: boolean
  /** Send `X-Auth-Return-Redirect: 1`, as latchkey/client does. */
  script?: boolean
  /** Leave the CSRF token out. */
  noCsrf?: boolean
  headers?: Record<string, string>
}

/** A browser: a cookie jar over the handler, one origin. */
export class Browser {
  readonly jar = new Map<string, string>()
  constructor(
    private readonly handler: (request: Request) => Promise<Response>,
    private readonly origin = ORIGIN
  ) {}

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ")
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.jar.size > 0) headers.set("cookie", this.cookie)
    const response = await this.handler(new Request(new URL(url, this.origin), { ...init, headers }))
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(";")
      const at = pair!.indexOf("=")
      const name = pair!.slice(0, at).trim()
      const value = pair!.slice(at + 1).trim()
      const gone = attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute)) || value === ""
      if (gone) this.jar.delete(name)
      else this.jar.set(name, value)
    }
    return response
  }

  get(path: string): Promise<Response> {
    return this.fetch(path.startsWith("http") ? path : `${this.origin}${path}`)
  }

  async csrf(): Promise<string> {
    const response = await this.get("/auth/csrf")
    return ((await response.json()) as { csrfToken: string }).csrfToken
  }

  async post(path: string, fields: Record<string, string>, options: PostOptions = {}): Promise<Response> {
    const body = options.noCsrf ? { ...fields } : { csrfToken: await this.csrf(), ...fields }
    const headers: Record<string, string> = { ...options.headers }
    if (options.script) headers["x-auth-return-redirect"] = "1"
    headers["content-type"] = options.json ? "application/json" : "application/x-www-form-urlencoded"
    return this.fetch(`${this.origin}${path}`, { method: "POST", headers, body: options.json ? JSON.stringify(body) : new URLSearchParams(body).toString() })
  }

  async session(): Promise<{ user?: { email?: string | null; name?: string | null } & Record<string, unknown> } | null> {
    const response = await this.get("/auth/session")
    return (await response.json()) as { user?: { email?: string | null } } | null
  }

  signUp(fields: Record<string, string>, options?: PostOptions) {
    return this.post("/auth/password/sign-up", fields, options)
  }

  signIn(email: string, password: string, options?: PostOptions) {
    return this.post("/auth/callback/password", { email, password }, options)
  }
}

/** The path and query of a mailed link, to open in a browser. */
export function linkOf(mail: PasswordEmail | undefined): string {
  if (!mail?.url) throw new Error(`no link in ${JSON.stringify(mail?.kind)}`)
  const url = new URL(mail.url)
  return `${url.pathname}${url.search}`
}

/** A response as comparable data: status, headers with Set-Cookie values blanked, body. */
export async function shape(response: Response): Promise<{ status: number; headers: [string, string][]; body: string }> {
  const headers: [string, string][] = []
  response.headers.forEach((value, name) => {
    if (name !== "set-cookie") headers.push([name, value])
  })
  for (const line of response.headers.getSetCookie()) headers.push(["set-cookie", line.split("=")[0]!])
  return { status: response.status, headers, body: await response.text() }
}

/** Signs a new user up and follows the verification link; answers the browser, signed in. */
export async function signedUpUser(app: ReturnType<typeof passwordApp>, email: string, password = GOOD): Promise<Browser> {
  const browser = app.browser()
  const answer = await browser.signUp({ email, password, name: "Ada" })
  if (answer.status !== 302) throw new Error(`sign-up answered ${answer.status}`)
  const mail = app.mailTo(email, "verify-email")
  if (mail) await browser.get(linkOf(mail))
  return browser
}
