// The handler's flows on every adapter of the matrix, with database sessions (the default with an
// adapter): OIDC sign-in against the real oidc-provider, account linking, an emailed link,
// credentials, session read and update, revocation and sign-out. A server that does not answer
// skips its entry with the reason printed.
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import Credentials from "../../src/providers/credentials.js"
import type { EmailConfig, OIDCConfig } from "../../src/providers/types.js"
import { startOidcServer, type OidcServer } from "../servers/oidc-provider.js"
import { csrfOf, jarOf, ORIGIN, post, secureApp, sessionOf } from "../security/support.js"
import { adapterMatrix, type AdapterStore, type MatrixEntry } from "./matrix.js"

const ADA = { sub: "ada-e2e", email: "ada.e2e@example.com", name: "Ada" }
let idp: OidcServer

beforeAll(async () => {
  idp = await startOidcServer({ accounts: [ADA], clients: [{ client_id: "app", client_secret: "app-secret", redirect_uris: [`${ORIGIN}/auth/callback/corp`], grant_types: ["authorization_code"] }] })
})
afterAll(() => idp.close())

const corp = (): OIDCConfig => ({ id: "corp", name: "Corp", type: "oidc", issuer: idp.issuer, clientId: "app", clientSecret: "app-secret" })
const TOKEN = "__Secure-authjs.session-token"

const reasons = await Promise.all(adapterMatrix.map((entry) => entry.skipReason()))
for (const [index, entry] of adapterMatrix.entries()) {
  const reason = reasons[index]
  if (reason !== undefined) console.warn(`[adapter end-to-end] skipping ${entry.name}: ${reason}`)
  describe.skipIf(reason !== undefined)(reason === undefined ? entry.name : `${entry.name} (skipped: ${reason})`, () => flows(entry))
}

it("runs every adapter of the matrix", () => {
  expect(adapterMatrix.map((entry) => entry.name)).toEqual(["memory", "pg", "drizzle-pg", "drizzle-pglite", "kysely-pg", "kysely-mariadb", "unstorage-redis"])
})

function flows(entry: MatrixEntry): void {
  let store: AdapterStore | undefined
  beforeAll(async () => {
    store = await entry.setup()
  }, 30_000)
  afterAll(async () => {
    await store?.teardown()
  })
  const adapter = () => store!.adapter

  it("OIDC: signs in with a database session, links an emailed address to the same user, updates, revokes and signs out", async () => {
    const links: string[] = []
    const email: EmailConfig = { id: "email", name: "Email", type: "email", from: "auth@example.com", sendVerificationRequest: ({ url }) => void links.push(url) }
    const site = secureApp({ providers: [corp(), email], adapter: adapter() })
    const browser = site.browser()
    idp.signInAs(ADA.sub)
    await post(browser, "/auth/signin/corp", { csrfToken: await csrfOf(browser) })
    const token = jarOf(browser)[TOKEN]!
    expect(token).toMatch(/^[0-9a-f]{64}\./)
    const row = await adapter().getSessionAndUser!(token)
    expect(row?.user.email).toBe(ADA.email)
    expect(row?.session.expires).toBeInstanceOf(Date)
    expect(await sessionOf(browser)).toMatchObject({ user: { email: ADA.email, name: ADA.name } })

    // The same address by email signs in as the same user (the link proves the address).
    const other = site.browser()
    await post(other, "/auth/signin/email", { csrfToken: await csrfOf(other), email: ADA.email })
    expect(links).toHaveLength(1)
    await other.open(links[0]!)
    const viaEmail = await adapter().getSessionAndUser!(jarOf(other)[TOKEN]!)
    expect(String(viaEmail?.user.id)).toBe(String(row?.user.id))

    // An update re-reads the row; revoking one session leaves the other.
    const updated = await site.handler(new Request(`${ORIGIN}/auth/session`, { method: "POST", headers: { cookie: Object.entries(jarOf(browser)).map(([name, value]) => `${name}=${value}`).join("; "), "content-type": "application/json" }, body: JSON.stringify({ csrfToken: await csrfOf(browser) }) }))
    expect(await updated.json()).toMatchObject({ user: { email: ADA.email } })
    await site.revokeSession(jarOf(other)[TOKEN]!)
    expect(await sessionOf(other)).toBeNull()
    expect(await sessionOf(browser)).not.toBeNull()
    await post(browser, "/auth/signout", { csrfToken: await csrfOf(browser) })
    expect(await sessionOf(browser)).toBeNull()
    expect(await adapter().getSessionAndUser!(token)).toBeNull()
  }, 30_000)

  it("credentials with a database session: the user authorize() returns is found by id", async () => {
    const created = await adapter().createUser!({ id: crypto.randomUUID(), email: `cred-${crypto.randomUUID()}@example.com`, emailVerified: null, name: "Cred" })
    const provider = Credentials({ credentials: { username: {} }, authorize: () => ({ id: String(created.id), name: "Cred", email: created.email }) })
    const site = secureApp({ providers: [provider], adapter: adapter() })
    const browser = site.browser()
    await post(browser, "/auth/signin/credentials", { csrfToken: await csrfOf(browser), username: "cred" })
    const row = await adapter().getSessionAndUser!(jarOf(browser)[TOKEN]!)
    expect(String(row?.user.id)).toBe(String(created.id))
    expect(await sessionOf(browser)).toMatchObject({ user: { name: "Cred" } })
  }, 30_000)
}
