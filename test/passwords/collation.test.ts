// Regression: a store whose collation ignores accents (MariaDB's default utf8mb4_general_ci, MySQL 8's
// utf8mb4_0900_ai_ci) answered `getUserByEmail("ada@exämple.com")` with the user ada@example.com, and
// the routes took that user for the address's (test/security/review5-passwords.test.ts). These pin the
// paths that review does not reach: the OAuth join, the password sign-in, what is logged, and the cure
// the docs give (a binary collation on the email column), which keeps the two mailboxes two users.
import { KyselyAdapter, type Database } from "@auth/kysely-adapter"
import type { Kysely } from "kysely"
import { describe, expect, it, vi } from "vitest"
import type { Adapter, AdapterUser } from "../../src/adapters/adapter.js"
import { AddressCollationError } from "../../src/index.js"
import { userWithAddress } from "../../src/oauth/address-match.js"
import { resolveSignIn } from "../../src/oauth/resolve-sign-in.js"
import { mariadbDatabase } from "../adapters/fresh-stores.js"
import { account, errorOf, linksIn, linkTo, passwordApp, pathOf, PW, signIn, STORES } from "../security/password-support.js"

const ADA = "ada@example.com"
const LOOK_ALIKE = "ada@exämple.com"

/** What an accent-insensitive, case-insensitive collation compares. */
const collated = (email: string) => email.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase()

/** A store holding `users` that finds them as such a collation would. */
function foldingStore(users: AdapterUser[]) {
  return {
    getUserByEmail: async (email: string) => users.find((user) => collated(user.email!) === collated(email)) ?? null,
    getUserByAccount: async () => null,
    getUser: async (id: string) => users.find((user) => user.id === id) ?? null,
    createUser: vi.fn(async (user: AdapterUser) => user),
    linkAccount: vi.fn(async () => undefined),
  }
}

const ada: AdapterUser = { id: "u-ada", email: ADA, emailVerified: new Date() }

describe("userWithAddress", () => {
  it("takes a user only for its own address, and names the one a fold answered", async () => {
    const store = foldingStore([ada])
    expect(await userWithAddress(store, ADA)).toEqual({ user: ada, lookAlike: null })
    expect(await userWithAddress(store, LOOK_ALIKE)).toEqual({ user: null, lookAlike: ada })
    expect(await userWithAddress(store, "nobody@example.com")).toEqual({ user: null, lookAlike: null })
  })

  it("is no fold where latchkey's rules agree: another case, or the app's normalizeIdentifier", async () => {
    const store = foldingStore([ada])
    expect((await userWithAddress(store, "Ada@Example.com")).user).toEqual(ada)
    const dropTag = (address: string) => address.toLowerCase().replace(/\+[^@]*@/, "@")
    const tagged = foldingStore([{ ...ada, email: "ada+news@example.com" }])
    expect((await userWithAddress(tagged, "ada+news@example.com", dropTag)).lookAlike).toBeNull()
  })

  it("warns a logger once, with the code and no address", async () => {
    const warn = vi.fn()
    const logger = { warn }
    const store = foldingStore([ada])
    await userWithAddress(store, LOOK_ALIKE, undefined, logger)
    await userWithAddress(store, "ADA@EXÄMPLE.COM", undefined, logger)
    expect(warn).toHaveBeenCalledOnce()
    expect(warn.mock.calls[0]![0]).toBe("ERR_ADDRESS_COLLATION")
    expect(JSON.stringify(warn.mock.calls[0])).not.toMatch(/ada@/i)
  })
})

describe("resolveSignIn on a folding store", () => {
  it("refuses to link an OAuth account by a look-alike address, even with allowDangerousEmailAccountLinking, and creates no user", async () => {
    const store = foldingStore([ada])
    const signIn = resolveSignIn(store, {
      user: { id: "idp-1", email: LOOK_ALIKE },
      account: { provider: "idp", type: "oidc", providerAccountId: "idp-1" },
      provider: { id: "idp", allowDangerousEmailAccountLinking: true },
    })
    await expect(signIn).rejects.toBeInstanceOf(AddressCollationError)
    await expect(signIn).rejects.toMatchObject({ code: "ERR_ADDRESS_COLLATION", provider: "idp" })
    await signIn.catch((error: Error) => expect(error.message).not.toMatch(/ada@/i))
    expect(store.linkAccount).not.toHaveBeenCalled()
    expect(store.createUser).not.toHaveBeenCalled()
  })
})

const mariadb = STORES.find((entry) => entry.name === "mariadb")!
const mariadbDown = await mariadb.skipReason()
let count = 0
const fresh = (domain: string) => `ada${++count}${Date.now().toString(36)}@${domain}`

describe.skipIf(mariadbDown !== undefined)(`look-alike addresses on MariaDB's default collation${mariadbDown ? ` (skipped: ${mariadbDown})` : ""}`, () => {
  it("a password sign-in with a look-alike spelling and the right password is refused as an unknown address", async () => {
    const store = await mariadb.setup()
    try {
      const app = passwordApp({ strategy: "jwt", adapter: store.adapter })
      const email = fresh("example.com")
      await account(app, email, PW.ada)
      const { response } = await signIn(app, email.replace("@example.com", "@exämple.com"), PW.ada)
      expect(await errorOf(response)).toBe("CredentialsSignin")
      expect(app.logged.filter((entry) => entry === "ERR_ADDRESS_COLLATION")).toHaveLength(1)
    } finally {
      await store.teardown()
    }
  })

  it("a magic link for the real address, while a look-alike user exists, ends on the error page and logs ERR_ADDRESS_COLLATION without the address", async () => {
    const store = await mariadb.setup()
    try {
      const links: string[] = []
      const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) }
      const app = passwordApp({ strategy: "jwt", adapter: store.adapter, providers: [magic] as never })
      const email = fresh("example.com")
      await account(app, email.replace("@example.com", "@exämple.com"), PW.eve)
      const victim = app.browser()
      await victim.post("/auth/signin/email", { email })
      const followed = await victim.request(new URL(links[0]!).pathname + new URL(links[0]!).search)
      expect(await errorOf(followed)).toBe("Configuration")
      expect(await victim.session()).toBeNull()
      const refusal = app.logged.find((entry): entry is AddressCollationError => entry instanceof AddressCollationError)
      expect(refusal?.code).toBe("ERR_ADDRESS_COLLATION")
      expect(refusal?.message).not.toContain(email.split("@")[0])
    } finally {
      await store.teardown()
    }
  })
})

describe.skipIf(mariadbDown !== undefined)(`a mailed link's address on MariaDB's default collation${mariadbDown ? ` (skipped: ${mariadbDown})` : ""}`, () => {
  // The token row is found by identifier and token, and the identifier column folds too: a link
  // mailed to a look-alike mailbox, its address edited to the owner's, found the look-alike's row.
  it("a magic link asked for a look-alike mailbox, its address edited to the owner's, signs no one in as the owner", async () => {
    const store = await mariadb.setup()
    try {
      const links: string[] = []
      const magic = { id: "email", type: "email" as const, name: "Email", sendVerificationRequest: async ({ url }: { url: string }) => void links.push(url) }
      const app = passwordApp({ strategy: "jwt", adapter: store.adapter, providers: [magic] as never })
      for (const owner of [true, false]) {
        const email = fresh("example.com")
        if (owner) await store.adapter.createUser!({ id: crypto.randomUUID(), email, emailVerified: new Date() })
        const eve = app.browser()
        await eve.post("/auth/signin/email", { email: email.replace("@example.com", "@exämple.com") })
        const edited = new URL(links.at(-1)!)
        edited.searchParams.set("email", email)
        const followed = await eve.request(edited.pathname + edited.search)
        expect(await errorOf(followed), `owner ${owner}`).toBe("Verification")
        expect(await eve.session(), `owner ${owner}`).toBeNull()
        // No user was made for the owner's address by the look-alike's link.
        if (!owner) expect(await store.adapter.getUserByEmail!(email)).toBeNull()
      }
    } finally {
      await store.teardown()
    }
  })

  it("a change-of-address link to a look-alike mailbox, its address edited to a free one, moves the account nowhere", async () => {
    const store = await mariadb.setup()
    try {
      const app = passwordApp({ strategy: "jwt", adapter: store.adapter })
      const eveAddress = fresh("example.org")
      const eve = await account(app, eveAddress, PW.eve)
      const wanted = fresh("example.com")
      const asked = await eve.post("/auth/password/change-email", { newEmail: wanted.replace("@example.com", "@exämple.com"), password: PW.eve })
      expect(asked.status).toBeLessThan(400)
      const link = linkTo(app.mailbox, wanted.replace("@example.com", "@exämple.com"), "confirm-email")
      link.searchParams.set("email", wanted)
      await eve.request(pathOf(link))
      expect((await eve.session())?.user?.email).toBe(eveAddress)
      expect(await store.adapter.getUserByEmail!(wanted)).toBeNull()
    } finally {
      await store.teardown()
    }
  })
})

describe.skipIf(mariadbDown !== undefined)("the cure the docs give: a binary collation on the email column", () => {
  it("keeps the owner and the look-alike two users, each signing in with their own password", async () => {
    const { db, teardown } = await mariadbDatabase<Database & { User: { password: string | null } }>(
      "mariadb.sql",
      "ALTER TABLE `User` ADD COLUMN password text; ALTER TABLE `User` MODIFY `email` varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL",
    )
    try {
      const adapter = {
        ...KyselyAdapter(db as unknown as Kysely<Database>),
        getUserPassword: async (id: string) => (await db.selectFrom("User").select("password").where("id", "=", id).executeTakeFirst())?.password ?? null,
        setUserPassword: async (id: string, hash: string) => void (await db.updateTable("User").set({ password: hash }).where("id", "=", id).execute()),
      } as Adapter
      const app = passwordApp({ strategy: "jwt", adapter })
      const email = fresh("example.com")
      const lookAlike = email.replace("@example.com", "@exämple.com")
      await account(app, lookAlike, PW.eve)
      await account(app, email, PW.ada)
      expect(app.mailbox.filter((mail) => mail.to === lookAlike).flatMap(linksIn)).toHaveLength(1)
      const [owner, other] = [await signIn(app, email, PW.ada), await signIn(app, lookAlike, PW.eve)]
      const [ownerSession, otherSession] = [await owner.browser.session(), await other.browser.session()]
      expect(ownerSession?.user?.email).toBe(email)
      expect(otherSession?.user?.email).toBe(lookAlike)
      expect(ownerSession?.user?.id).not.toBe(otherSession?.user?.id)
      expect(app.logged).not.toContain("ERR_ADDRESS_COLLATION")
    } finally {
      await teardown()
    }
  })
})
