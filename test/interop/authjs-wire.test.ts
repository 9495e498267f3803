// What an Auth.js app's own code sees, asked of the real Auth.js (@auth/core 0.41) and of latchkey
// with the same config: the `/providers` answer its pages and `next-auth/react` read, the `signIn`
// callback's arguments when a magic link is asked for (an app's invite rule reads them), and links
// stored under an email provider's own `secret`, which must cross a deploy both ways. One origin
// serves either library under /auth on one memory adapter; the browser and its cookies stay.
import { Auth, type AuthConfig as AuthjsConfig } from "@auth/core"
import type { Adapter as AuthjsAdapter } from "@auth/core/adapters"
import { describe, expect, it } from "vitest"
import { createAuth } from "../../src/handler/index.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { EmailConfig } from "../../src/providers/types.js"
import Credentials from "../../src/providers/credentials.js"
import { csrf, postForm } from "../handler/support.js"
import { TestBrowser } from "../servers/browser.js"
import { movingOrigin, type Side } from "./moving-origin.js"

const ORIGIN = "https://app.example.com"
const SECRET = "latchkey-wire-secret-0123456789abcdef0123"

type SignInArguments = { user: Record<string, unknown>; account: Record<string, unknown> | null; email?: { verificationRequest?: boolean } }

/**
 * Both libraries on one adapter with an email provider (and credentials), the same `signIn`
 * callback and the same extra config; `serve` picks which one answers /auth.
 */
function site(options: { signIn?: (params: SignInArguments) => boolean | string; emailSecret?: string; secret?: string | string[] } = {}) {
  const secret = options.secret ?? SECRET
  const adapter = memoryAdapter()
  const outbox: string[] = []
  const seen: { side: Side; params: SignInArguments }[] = []
  const signIn = (params: SignInArguments) => {
    seen.push({ side: origin.serving(), params: structuredClone(params) })
    return options.signIn?.(params) ?? true
  }
  const email = {
    id: "email",
    type: "email",
    name: "Email",
    from: "auth@app.example.com",
    maxAge: 3600,
    ...(options.emailSecret === undefined ? {} : { secret: options.emailSecret }),
    sendVerificationRequest: ({ url }: { url: string }) => void outbox.push(url),
  } as const
  const credentials = { id: "credentials", name: "Password", type: "credentials", credentials: { email: {} }, authorize: () => null } as const
  const authjsConfig: AuthjsConfig = {
    secret,
    trustHost: true,
    basePath: "/auth",
    adapter: adapter as unknown as AuthjsAdapter,
    session: { strategy: "database" },
    providers: [{ ...email, options: {} }, credentials] as AuthjsConfig["providers"],
    callbacks: { signIn: signIn as never },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
  }
  const latchkey = createAuth({
    secret,
    trustHost: true,
    env: {},
    adapter,
    session: { strategy: "database" },
    providers: [email satisfies EmailConfig, Credentials({ name: "Password", credentials: { email: {} }, authorize: () => null })],
    callbacks: { signIn: signIn as never },
    logger: { error: () => {}, warn: () => {} },
  })
  const origin = movingOrigin(ORIGIN, { authjs: (request) => Auth(request, authjsConfig), latchkey: latchkey.handler })
  return {
    adapter,
    outbox,
    seen,
    serve: origin.serve,
    browser: () => new TestBrowser(undefined, origin.dispatch),
    async askForLink(browser: TestBrowser, address: string): Promise<URL> {
      return (await postForm(browser, "/auth/signin/email", { csrfToken: await csrf(browser, ORIGIN), email: address, callbackUrl: `${ORIGIN}/welcome` }, ORIGIN)).url
    },
    async sessionEmail(browser: TestBrowser): Promise<string | null> {
      const { response } = await browser.open(`${ORIGIN}/auth/session`)
      return ((await response.json()) as { user?: { email?: string } } | null)?.user?.email ?? null
    },
  }
}

const SIDES: Side[] = ["authjs", "latchkey"]

describe("GET /auth/providers", () => {
  it("is the same record keyed by provider id on both, so `providers[id]` and next-auth/react's signIn(id) find the provider", async () => {
    const app = site()
    const bodies: Record<Side, unknown> = { authjs: undefined, latchkey: undefined }
    for (const side of SIDES) {
      app.serve(side)
      const { response } = await app.browser().open(`${ORIGIN}/auth/providers`)
      expect(response.status).toBe(200)
      bodies[side] = await response.json()
    }
    expect(bodies.latchkey).toEqual(bodies.authjs)
    expect(bodies.latchkey).toEqual({
      email: { id: "email", name: "Email", type: "email", signinUrl: `${ORIGIN}/auth/signin/email`, callbackUrl: `${ORIGIN}/auth/callback/email` },
      credentials: { id: "credentials", name: "Password", type: "credentials", signinUrl: `${ORIGIN}/auth/signin/credentials`, callbackUrl: `${ORIGIN}/auth/callback/credentials` },
    })
  })
})

describe("the signIn callback when a magic link is asked for", () => {
  /** The argument shapes, with the ids that differ by run replaced by what they must equal. */
  function shape({ params }: { params: SignInArguments }, knownId?: string) {
    const { user, account, email } = params
    expect(typeof user.id).toBe("string")
    if (knownId !== undefined) expect(user.id).toBe(knownId)
    expect(account?.userId).toBe(user.id)
    return { user: { ...user, id: "<id>" }, account: { ...account, userId: "<id>" }, email }
  }

  it("gets Auth.js's arguments on both: the user (stored, or the one a link would create) and an email account", async () => {
    const app = site()
    const known = await app.adapter.createUser!({ id: "user-ada", email: "ada@example.com", emailVerified: null, name: "Ada" })
    for (const side of SIDES) {
      app.serve(side)
      expect((await app.askForLink(app.browser(), "ada@example.com")).pathname).toBe("/auth/verify-request")
      expect((await app.askForLink(app.browser(), "newcomer@example.com")).pathname).toBe("/auth/verify-request")
    }
    const [authjsKnown, authjsNew, latchkeyKnown, latchkeyNew] = app.seen
    expect(app.seen.map(({ side }) => side)).toEqual(["authjs", "authjs", "latchkey", "latchkey"])
    expect(shape(latchkeyKnown!, known.id)).toEqual(shape(authjsKnown!, known.id))
    expect(shape(latchkeyNew!)).toEqual(shape(authjsNew!))
    expect(shape(latchkeyNew!)).toEqual({
      user: { id: "<id>", email: "newcomer@example.com", emailVerified: null },
      account: { provider: "email", type: "email", providerAccountId: "newcomer@example.com", userId: "<id>" },
      email: { verificationRequest: true },
    })
    // Nothing is written to ask: the newcomer's id is only the one a link would be for.
    expect(await app.adapter.getUserByEmail!("newcomer@example.com")).toBeNull()
  })

  it("an Auth.js invite rule on account.provider refuses an uninvited address on both: no link is sent", async () => {
    const invited = new Set(["ada@example.com"])
    const app = site({ signIn: ({ user, account, email }) => !(account?.provider === "email" && email?.verificationRequest) || invited.has(String(user.email)) })
    for (const side of SIDES) {
      app.serve(side)
      const url = await app.askForLink(app.browser(), "stranger@example.com")
      expect([side, url.pathname, url.searchParams.get("error")]).toEqual([side, "/auth/error", "AccessDenied"])
    }
    expect(app.outbox).toEqual([])
    app.serve("latchkey")
    expect((await app.askForLink(app.browser(), "ada@example.com")).pathname).toBe("/auth/verify-request")
    expect(app.outbox).toHaveLength(1)
  })

  it("the verify-request page is reached at the same address on both", async () => {
    const app = site()
    const landed: string[] = []
    for (const side of SIDES) {
      app.serve(side)
      landed.push((await app.askForLink(app.browser(), "ada@example.com")).href)
    }
    expect(landed[1]).toBe(landed[0])
  })
})

describe("an email provider with its own `secret`", () => {
  it.each([
    ["authjs", "latchkey"],
    ["latchkey", "authjs"],
  ] as const)("a link %s sent signs in on %s, once", async (sender, opener) => {
    const app = site({ emailSecret: "the-email-provider-own-secret-0123456789" })
    app.serve(sender)
    const asker = app.browser()
    expect((await app.askForLink(asker, "grace@example.com")).pathname).toBe("/auth/verify-request")
    app.serve(opener)
    const reader = app.browser()
    expect((await reader.open(app.outbox[0]!)).url.href).toBe(`${ORIGIN}/welcome`)
    expect(await app.sessionEmail(reader)).toBe("grace@example.com")
    expect((await app.browser().open(app.outbox[0]!)).url.searchParams.get("error")).toBe("Verification")
  })

  it("is what latchkey keys the stored token with: the app's secret alone does not open the link", async () => {
    const app = site({ emailSecret: "the-email-provider-own-secret-0123456789" })
    app.serve("latchkey")
    await app.askForLink(app.browser(), "hedy@example.com")
    const token = new URL(app.outbox[0]!).searchParams.get("token")!
    const hex = async (text: string) => Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))).toString("hex")
    expect(await app.adapter.useVerificationToken!({ identifier: "hedy@example.com", token: await hex(`${token}${SECRET}`) })).toBeNull()
    expect(await app.adapter.useVerificationToken!({ identifier: "hedy@example.com", token: await hex(`${token}the-email-provider-own-secret-0123456789`) })).not.toBeNull()
  })
})

describe("a CSRF token Auth.js issued while two secrets are set", () => {
  it("is accepted by latchkey: a sign-out form Auth.js served signs out after the deploy", async () => {
    const app = site({ secret: ["a-newer-wire-secret-0123456789abcdef0123", SECRET] })
    app.serve("authjs")
    const browser = app.browser()
    const token = await csrf(browser, ORIGIN)
    app.serve("latchkey")
    const { url } = await postForm(browser, "/auth/signout", { csrfToken: token, callbackUrl: `${ORIGIN}/bye` }, ORIGIN)
    expect(url.href).toBe(`${ORIGIN}/bye`)
  })
})
