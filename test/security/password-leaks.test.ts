// Secrets out of the password flows (issue #28): every flow run end to end, right and wrong, and
// then everything the app was handed is searched for the passwords, the stored hashes and the
// mailed tokens: the logger (every value, its cause chain walked), the callbacks and events (a
// user with a `password` property, as @auth/pg-adapter's `select *` returns one, must have lost it
// before any of them sees it), the session JSON, and every answer's headers and body.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { account, linkTo, passwordApp, pathOf, PW, reset, resetLink, signIn, storesHere, STRATEGIES, type PasswordApp, type PasswordStore } from "./password-support.js"

/** Every string reachable from `root`, own properties, cause chains, Maps and Sets included. */
function strings(root: unknown): string[] {
  const found: string[] = []
  const seen = new Set<object>()
  const stack = [root]
  while (stack.length > 0) {
    const value = stack.pop()
    if (typeof value === "string") found.push(value)
    if ((typeof value !== "object" && typeof value !== "function") || value === null || seen.has(value)) continue
    seen.add(value)
    if (value instanceof Request || value instanceof Response) found.push(value.url)
    if (value instanceof URL) found.push(value.href)
    if (value instanceof Map || value instanceof Set) for (const entry of value) stack.push(entry)
    for (const key of Reflect.ownKeys(value)) {
      if (typeof key === "string") found.push(key)
      const descriptor = Object.getOwnPropertyDescriptor(value, key)
      if (descriptor && "value" in descriptor) stack.push(descriptor.value)
    }
  }
  return found
}

for (const { entry, reason } of await storesHere()) {
  for (const strategy of STRATEGIES) {
    describe.skipIf(reason !== undefined)(`no secret leaves the password flows: ${entry.name}, ${strategy} sessions${reason ? ` (skipped: ${reason})` : ""}`, () => {
      let store: PasswordStore
      let app: PasswordApp
      const handed: { where: string; value: unknown }[] = []
      const answers: string[] = []
      beforeAll(async () => {
        store = await entry.setup()
        const note = (where: string) => (value: unknown) => void handed.push({ where, value })
        app = passwordApp({
          strategy,
          adapter: store.adapter,
          config: {
            callbacks: {
              signIn: (params) => (note("callbacks.signIn")(params), true),
              jwt: (params) => (note("callbacks.jwt")(params), params.token),
              session: (params) => (note("callbacks.session")(params), params.session),
            },
            events: { signIn: note("events.signIn"), createUser: note("events.createUser"), updateUser: note("events.updateUser"), session: note("events.session"), signOut: note("events.signOut") },
          },
        })
      }, 30_000)
      afterAll(() => store?.teardown())

      it("the logger, the callbacks, the events, the session and the answers never carry a password, a hash or a token", async () => {
        const email = `leaky-${strategy}@example.com`
        const tokens: string[] = []
        const keep = async (response: Response) => void answers.push(JSON.stringify([...response.headers]), await response.clone().text())
        const browser = await account(app, email, PW.ada)
        tokens.push(linkTo(app.mailbox, email, "verify-email").searchParams.get("token")!)
        const wrong = await signIn(app, email, "a wrong but long passphrase")
        await keep(wrong.response)
        const right = await signIn(app, email, PW.ada)
        await keep(right.response)
        await keep(await right.browser.request("/auth/session"))
        await keep(await browser.post("/auth/password/change", { currentPassword: "a wrong but long passphrase", newPassword: PW.bob }))
        await keep(await browser.post("/auth/password/change", { currentPassword: PW.ada, newPassword: "short" }))
        await keep(await browser.post("/auth/password/change", { currentPassword: PW.ada, newPassword: PW.bob }))
        const link = await resetLink(app, email)
        tokens.push(link.searchParams.get("token")!)
        await keep(await reset(app.browser(), link, "short"))
        await keep(await reset(app.browser(), link, PW.fresh, { token: `${link.searchParams.get("token")!}x` }))
        await keep(await reset(app.browser(), link, PW.fresh))
        const signedIn = (await signIn(app, email, PW.fresh)).browser
        await keep(await signedIn.post("/auth/password/change-email", { newEmail: `moved-${strategy}@example.com`, password: "a wrong but long passphrase" }))
        await keep(await signedIn.post("/auth/password/change-email", { newEmail: `moved-${strategy}@example.com`, password: PW.fresh }))
        const confirm = linkTo(app.mailbox, `moved-${strategy}@example.com`, "confirm-email")
        tokens.push(confirm.searchParams.get("token")!)
        await keep(await signedIn.open(pathOf(confirm)))
        await keep(await signedIn.request("/auth/session"))
        const user = await store.adapter.getUserByEmail!(`moved-${strategy}@example.com`)
        const hash = await store.adapter.getUserPassword!(user!.id)
        expect(hash).toMatch(/^\$(scrypt|pbkdf2)/)

        const secrets = { hash: hash!, [PW.ada]: PW.ada, [PW.bob]: PW.bob, [PW.fresh]: PW.fresh, ...Object.fromEntries(tokens.map((token, i) => [`token ${i}`, token])) }
        // The signIn callback's `credentials` is what the form sent (Auth.js hands it over too); the rest must be clean.
        const withoutCredentials = (value: unknown) => (typeof value === "object" && value !== null ? { ...value, credentials: undefined } : value)
        const places = { logger: strings(app.logged), answers, ...Object.fromEntries(handed.map(({ where, value }, i) => [`${where} #${i}`, strings(withoutCredentials(value))])) }
        const found: string[] = []
        for (const [place, texts] of Object.entries(places)) {
          for (const [name, secret] of Object.entries(secrets)) if (texts.some((text) => text.includes(secret))) found.push(`${name} in ${place}`)
        }
        expect(found).toEqual([])
        // No user object anyone was handed has a `password` property at all.
        const userOf = (value: unknown) => (typeof value === "object" && value !== null && "user" in value ? (value as { user: unknown }).user : undefined)
        const withPassword = handed.filter(({ value }) => { const user = userOf(value); return typeof user === "object" && user !== null && "password" in user })
        expect(withPassword.map(({ where }) => where)).toEqual([])
        expect(handed.some(({ where }) => where === "callbacks.signIn")).toBe(true)
      }, 60_000)
    })
  }
}
