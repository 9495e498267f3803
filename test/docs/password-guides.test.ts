// The "Password accounts" sections of docs/react.md, docs/frameworks/nextjs.md and
// docs/frameworks/sveltekit.md, as an app copies them: the ts and tsx blocks typechecked against
// latchkey's source, the React guide's form helpers run with a real latchkey/client against the
// handler (Password provider, the passwords plug-in, a captured mailbox), the Next.js server action
// run through latchkey/next's serverActions with Next's own cookie classes, and the SvelteKit form
// run as the signIn form action runs it. The links the sections name are pages the handler serves.
import { RequestCookies } from "next/dist/compiled/@edge-runtime/cookies/index.js"
import { MutableRequestCookiesAdapter } from "next/dist/server/web/spec-extension/adapters/request-cookies.js"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { createAuthClient } from "../../src/client/client.js"
import type { AuthClient } from "../../src/client/types.js"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import { createAuth } from "../../src/handler/index.js"
import { serverActions } from "../../src/integrations/next/actions.js"
import { signInFields } from "../../src/integrations/run-action.js"
import { runForEvent } from "../../src/integrations/sveltekit/actions.js"
import { passwordsWith } from "../../src/passwords/index.js"
import Password, { type PasswordEmail } from "../../src/providers/password.js"
import { rateLimits } from "../../src/rate-limits/plug-in.js"
import { TestBrowser } from "../servers/browser.js"
import { CHEAP } from "../passwords/support.js"
import { nextActionBrowser } from "../integrations/next-action-browser.js"
import { itTypechecks } from "../setup/typechecks.js"
import { runSnippet, snippetsOf, typecheck, type Snippet } from "./support.js"

const APP = "https://app.example.com"
const SECRET = "latchkey-password-guides-secret-0123456789"
const GOOD = "correct horse battery staple"
const NEW = "purple elephants dance at noon"

/** The blocks under one `## heading` of a page (its sub-headings included). */
function section(page: string, heading: string): Snippet[] {
  const headings = snippetsOf(page)
  const text = readFileSync(`docs/${page}`, "utf8")
  const start = text.indexOf(`\n## ${heading}\n`)
  const end = text.indexOf("\n## ", start + 1)
  const from = text.slice(0, start).split("\n").length
  const to = end === -1 ? Infinity : text.slice(0, end).split("\n").length
  return headings.filter((block) => block.line > from && block.line <= to)
}

const REACT = section("react.md", "Password accounts")
const NEXT = section("frameworks/nextjs.md", "Password accounts")
const KIT = section("frameworks/sveltekit.md", "Password accounts")
const [HELPERS, COMPONENTS] = [REACT.find((block) => block.lang === "ts")!, REACT.find((block) => block.lang === "tsx")!]
const [ACTION, CHANGE_ACTION] = NEXT.filter((block) => block.lang === "ts") as [Snippet, Snippet]
const [LOGIN_PAGE, ACCOUNT_PAGE] = NEXT.filter((block) => block.lang === "tsx") as [Snippet, Snippet]
/** The account page's two forms, as markup: the password change's, then the change of address's. */
const [PASSWORD_FORM, EMAIL_FORM] = ACCOUNT_PAGE.code.split("</form>") as [string, string]
const [KIT_FORM, KIT_CHANGE] = KIT.filter((block) => block.lang === "svelte")
const KIT_ACTIONS = KIT.find((block) => block.lang === "ts")!

function app(options: { verify?: boolean; limits?: boolean } = {}) {
  const mailbox: PasswordEmail[] = []
  const auth = createAuth({
    providers: [Password({ sendEmail: (mail) => void mailbox.push(mail), requireEmailVerification: options.verify ?? false })],
    adapter: memoryAdapter(),
    passwords: passwordsWith(CHEAP),
    secret: SECRET,
    env: { AUTH_URL: `${APP}/auth` },
    rateLimits: options.limits ? rateLimits({ routes: { "password-sign-in": { client: { limit: 100, windowSeconds: 60 }, identifier: { limit: 1, windowSeconds: 900 } } } }) : false,
  })
  const browser = new TestBrowser(undefined, (input, init) => auth.handler(new Request(String(input), init as RequestInit)))
  const client = createAuthClient({ baseUrl: APP, broadcast: false, fetch: async (input, init) => (await browser.open(String(input), init)).response })
  const linkTo = (to: string, kind: PasswordEmail["kind"]) => new URL([...mailbox].reverse().find((mail) => mail.to === to && mail.kind === kind)!.url!)
  return { auth, browser, client, mailbox, linkTo }
}

const form = (fields: Record<string, string>) => {
  const data = new FormData()
  for (const [name, value] of Object.entries(fields)) data.set(name, value)
  return data
}

/** The `name`/`value` pairs of the inputs in a markup block, as the browser would submit them filled in. */
function fieldsOf(markup: string, filled: Record<string, string>): Record<string, string> {
  const fields: Record<string, string> = {}
  for (const [, attributes] of markup.matchAll(/<input ([^>]*)\/?>/g)) {
    const name = /name="([^"]+)"/.exec(attributes!)?.[1]
    const value = /value="([^"]*)"/.exec(attributes!)?.[1]
    if (name && !/type="checkbox"/.test(attributes!)) fields[name] = value ?? filled[name] ?? ""
  }
  return fields
}

describe("the password sections of the framework guides", () => {
  it("each section has exactly the blocks this file exercises", () => {
    expect(REACT.map((block) => block.lang)).toEqual(["ts", "tsx"])
    expect(NEXT.map((block) => block.lang)).toEqual(["ts", "tsx", "ts", "tsx"])
    expect(KIT.map((block) => block.lang)).toEqual(["svelte", "svelte", "ts"])
  })

  itTypechecks("the ts and tsx blocks compile as an app writes them", () => {
    const diagnostics = typecheck({
      "lib/password-forms.ts": HELPERS.code,
      "app/password-forms.tsx": COMPONENTS.code.replace("@/lib/password-forms", "../lib/password-forms"),
      "auth.ts": `import { Latchkey } from "latchkey/next"\nimport Password from "latchkey/providers/password"\nimport { passwords } from "latchkey/passwords"\nexport const { handlers, auth, signIn, signOut, changePassword, changeEmail } = Latchkey({ providers: [Password({ sendEmail: async () => {} })], passwords })\n`,
      "app/login/actions.ts": ACTION.code,
      "app/account/actions.ts": CHANGE_ACTION.code,
      "app/login/page.tsx": LOGIN_PAGE.code,
      "app/account/page.tsx": ACCOUNT_PAGE.code,
    })
    expect(diagnostics).toEqual([])
  }, 90_000)

  it("React: the form helpers through a whole account's life, each answering the message to show", async () => {
    const { client, linkTo } = app()
    const helpers = await runSnippet(HELPERS.code, {})
    const run = (name: string, fields: Record<string, string>, ...rest: unknown[]) => helpers[name](client as AuthClient, form(fields), ...rest) as Promise<string | undefined>
    expect(await run("signUpWith", { email: "ada@example.com", password: "short", name: "Ada" })).toBe("Choose a password of at least 15 characters.")
    expect(await run("signUpWith", { email: "ada@example.com", password: GOOD, name: "Ada" })).toBeUndefined()
    expect((await client.getSession())?.user).toMatchObject({ email: "ada@example.com", name: "Ada" })
    expect(await run("changePasswordWith", { current: "not my password", password: NEW })).toBe("Your current password is not right.")
    expect(await run("changePasswordWith", { current: GOOD, password: NEW, everywhere: "on" })).toBe("Password changed.")
    await client.signOut({ redirect: false })
    expect(await run("signInWith", { email: "ada@example.com", password: GOOD })).toBe("Wrong email or password.")
    expect(await run("signInWith", { email: "ada@example.com", password: NEW })).toBeUndefined()
    await client.signOut({ redirect: false })
    expect(await run("forgotWith", { email: "ada@example.com" })).toBe("If that address has an account, we sent it a link.")
    expect(await run("forgotWith", { email: "nobody@example.com" })).toBe("If that address has an account, we sent it a link.")
    const link = linkTo("ada@example.com", "reset")
    expect(await run("resetWith", { password: GOOD }, link)).toBeUndefined()
    expect(client.getState()).toMatchObject({ status: "authenticated" })
    expect(await run("resetWith", { password: GOOD }, link)).toBe("This link has expired or was already used. Ask for a new one.")
  })

  it("React: an unverified address and a rate limit read as their messages", async () => {
    const { client } = app({ verify: true, limits: true })
    const helpers = await runSnippet(HELPERS.code, {})
    await helpers.signUpWith(client, form({ email: "ada@example.com", password: GOOD }))
    expect(await helpers.signInWith(client, form({ email: "ada@example.com", password: GOOD }))).toBe("Confirm your address first: open the link we sent you.")
    // The limit (one attempt that did not sign in, per address) refuses the next before any check.
    expect(await helpers.signInWith(client, form({ email: "ada@example.com", password: GOOD }))).toMatch(/^Too many attempts\. Try again in \d+ minutes\.$/)
  })

  it("Next.js: the server action signs in with the page's form, and answers the message for a wrong password", async () => {
    const { auth, client } = app()
    await client.signUp({ email: "ada@example.com", password: GOOD }, { redirect: false })
    const headers = new Headers({ host: "app.example.com", "x-forwarded-proto": "https", origin: APP, referer: `${APP}/login` })
    const store = MutableRequestCookiesAdapter.wrap(new RequestCookies(headers), () => {})
    const { signIn } = serverActions(auth, { basePath: "/auth" }, { headers: async () => headers, cookies: async () => store })
    class Redirected {
      constructor(readonly url: string) {}
    }
    const redirect = (url: string) => {
      throw new Redirected(url)
    }
    const { signInWithPassword } = await runSnippet(ACTION.code, { "next/navigation": { redirect }, "../../auth": { signIn } })
    const submitted = (password: string) => form(fieldsOf(LOGIN_PAGE.code, { email: "ada@example.com", password }))
    expect(await signInWithPassword(undefined, submitted("wrong password entirely"))).toBe("Wrong email or password.")
    expect(store.getAll().some(({ name }) => name.endsWith("session-token"))).toBe(false)
    const thrown = await signInWithPassword(undefined, submitted(GOOD)).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Redirected)
    expect((thrown as Redirected).url).toBe(`${APP}/dashboard`)
    expect(store.getAll().some(({ name }) => name.endsWith("session-token"))).toBe(true)
  })

  it("Next.js: the change-password action answers the message for each refusal, and changes the password", async () => {
    const { auth } = app()
    const browser = nextActionBrowser(auth)
    expect(await browser.run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD }))).toMatchObject({ ok: true })
    const changePassword = (fields: FormData) => browser.run((actions) => actions.changePassword(fields))
    const { changeMyPassword } = await runSnippet(CHANGE_ACTION.code, { "../../auth": { changePassword, changeEmail: () => {} } })
    // The page's form, filled in (its checkbox ticked where the test says).
    expect(PASSWORD_FORM).toContain('name="revokeOtherSessions" type="checkbox"')
    const submitted = (currentPassword: string, newPassword: string, everywhere = false) =>
      form({ ...fieldsOf(PASSWORD_FORM, { currentPassword, newPassword }), ...(everywhere ? { revokeOtherSessions: "on" } : {}) })
    expect(await changeMyPassword(undefined, submitted("not my password at all", NEW))).toBe("Your current password is not right.")
    expect(await changeMyPassword(undefined, submitted(GOOD, "short"))).toBe("Use 15 to 128 characters.")
    expect(await changeMyPassword(undefined, submitted(GOOD, NEW, true))).toBe("Your password is changed.")
    expect(await browser.run((actions) => actions.signIn("password", { email: "ada@example.com", password: NEW }))).toMatchObject({ ok: true })
    browser.forget()
    expect(await changeMyPassword(undefined, form({ currentPassword: NEW, newPassword: GOOD }))).toBe("Sign in again first.")
  })

  it("Next.js: the change-of-address action, with the page's form, answers each refusal's message and mails the link", async () => {
    const { auth, mailbox } = app()
    const browser = nextActionBrowser(auth)
    expect(await browser.run((actions) => actions.signUp({ email: "ada@example.com", password: GOOD }))).toMatchObject({ ok: true })
    const changeEmail = (fields: FormData) => browser.run((actions) => actions.changeEmail(fields))
    const { changeMyEmail } = await runSnippet(CHANGE_ACTION.code, { "../../auth": { changePassword: () => {}, changeEmail } })
    const submitted = (newEmail: string, password: string) => form(fieldsOf(EMAIL_FORM, { newEmail, password }))
    expect(Object.keys(fieldsOf(EMAIL_FORM, {})).sort()).toEqual(["newEmail", "password"])
    expect(await changeMyEmail(undefined, submitted("ada@new.example", "not my password at all"))).toBe("Your password is not right.")
    expect(await changeMyEmail(undefined, submitted("ada@example.com", GOOD))).toBe("Enter a new address, not your current one.")
    expect(mailbox.filter((mail) => mail.kind === "change-email")).toEqual([])
    expect(await changeMyEmail(undefined, submitted("ada@new.example", GOOD))).toBe("We sent a link to your new address. Open it where you are signed in to finish.")
    expect(mailbox.filter((mail) => mail.kind === "change-email").map((mail) => mail.to)).toEqual(["ada@new.example"])
    browser.forget()
    expect(await changeMyEmail(undefined, submitted("ada@other.example", GOOD))).toBe("Sign in again first.")
  })

  it("Next.js: the change-of-address link completes only in a signed-in session of the account, as the section says", async () => {
    const text = readFileSync("docs/frameworks/nextjs.md", "utf8").replace(/\s+/g, " ")
    expect(text).toContain("that link completes only in a signed-in session of the same account: anywhere else it sends the browser to sign in, then back to finish.")
    const { auth, client, browser, linkTo } = app()
    await client.signUp({ email: "ada@example.com", password: GOOD }, { redirect: false })
    expect(await client.changeEmail({ newEmail: "ada@new.example", password: GOOD })).toMatchObject({ ok: true })
    const link = linkTo("ada@new.example", "change-email")
    const elsewhere = new TestBrowser(undefined, (input, init) => auth.handler(new Request(String(input), init as RequestInit)))
    const signIn = new URL((await elsewhere.open(link)).url)
    expect(signIn.pathname).toBe("/auth/signin")
    expect(signIn.searchParams.get("callbackUrl")).toBe(link.href)
    expect((await client.getSession())?.user?.email).toBe("ada@example.com")
    await browser.open(link)
    expect((await client.getSession())?.user?.email).toBe("ada@new.example")
  })

  it("SvelteKit: the change-password form action is the plug-in's changePassword, exported as it is", async () => {
    const changePassword = async () => ({ status: 400, data: { error: "InvalidCurrentPassword" } })
    const { actions } = await runSnippet(KIT_ACTIONS.code, { "../../auth": { changePassword } })
    expect(actions).toEqual({ default: changePassword })
  })

  it("SvelteKit: the form, as the signIn form action posts it, signs in; a wrong password goes back to the sign-in page", async () => {
    const { auth, client } = app()
    await client.signUp({ email: "ada@example.com", password: GOOD }, { redirect: false })
    const submit = async (password: string) => {
      const values = new Map<string, string>()
      const event = {
        request: new Request(`${APP}/login`, { method: "POST", headers: { origin: APP } }),
        url: new URL(`${APP}/login`),
        cookies: { getAll: () => [...values].map(([name, value]) => ({ name, value })), set: (name: string, value: string) => void values.set(name, value) },
      }
      const fields = fieldsOf(KIT_FORM!.code, { email: "ada@example.com", password })
      expect(fields.providerId).toBe("password")
      const result = await runForEvent(auth, { basePath: "/auth" }, event, `/auth/signin/${fields.providerId}`, signInFields(form(fields), undefined))
      return { result, signedIn: [...values.keys()].some((name) => name.endsWith("session-token")) }
    }
    expect(await submit("wrong password entirely")).toMatchObject({ result: { ok: false, error: "CredentialsSignin" }, signedIn: false })
    expect(await submit(GOOD)).toMatchObject({ result: { ok: true, url: `${APP}/dashboard` }, signedIn: true })
  })

  it("SvelteKit: the change-password component uses a helper of the React guide, with the fields it reads", async () => {
    const helpers = await runSnippet(HELPERS.code, {})
    const imported = /import \{ (\w+) \} from "\$lib\/password-forms"/.exec(KIT_CHANGE!.code)![1]!
    expect(typeof helpers[imported]).toBe("function")
    const names = [...KIT_CHANGE!.code.matchAll(/name="(\w+)"/g)].map(([, name]) => name)
    for (const name of names) expect(HELPERS.code).toContain(`"${name}"`)
  })

  it("every page a section links to is served by the handler", async () => {
    const { auth } = app()
    const hrefs = new Set([...NEXT, ...KIT].flatMap((block) => [...block.code.matchAll(/href="(\/auth\/[^"]+)"/g)].map(([, href]) => href!)))
    expect([...hrefs].sort()).toEqual(["/auth/password/forgot", "/auth/password/sign-up"])
    for (const href of hrefs) {
      const response = await auth.handler(new Request(`${APP}${href}`))
      expect(response.status, href).toBe(200)
      expect(response.headers.get("content-type")).toContain("text/html")
    }
  })
})
