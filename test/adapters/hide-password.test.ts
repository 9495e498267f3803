// hidePasswordField wraps the app's adapter at createAuth: every user it answers loses a `password`
// property (a `select *` adapter reads the column), and nothing else about the answers changes.
// getSessionAndUser runs on every database-session read, so a session whose user has no password
// comes back as the very object the adapter answered, with no copy.
import { describe, expect, it } from "vitest"
import type { Adapter, AdapterSession, AdapterUser } from "../../src/adapters/adapter.js"
import { hidePasswordField } from "../../src/adapters/hide-password.js"

const ada = { id: "1", email: "ada@example.com", emailVerified: null }
const withHash = { ...ada, password: "$scrypt$ln=16,r=8,p=2$salt$hash" }
const session: AdapterSession = { sessionToken: "t", userId: "1", expires: new Date(Date.now() + 60_000) }

function adapterAnswering(user: AdapterUser | null): Adapter {
  return {
    getUser: async () => user,
    getUserByEmail: async () => user,
    getSessionAndUser: async () => (user ? { session, user } : null),
    createUser: async (created) => ({ ...created, ...user }) as AdapterUser,
  }
}

describe("hidePasswordField", () => {
  it("drops a user's password from every method that answers a user, and from a session's user", async () => {
    const hidden = hidePasswordField(adapterAnswering(withHash as AdapterUser))!
    for (const user of [await hidden.getUser!("1"), await hidden.getUserByEmail!("ada@example.com"), await hidden.createUser!(ada as AdapterUser), (await hidden.getSessionAndUser!("t"))!.user]) {
      expect(user).toEqual(ada)
      expect(Object.hasOwn(user!, "password")).toBe(false)
    }
    expect((await hidden.getSessionAndUser!("t"))!.session).toBe(session)
  })

  it("answers the adapter's own objects when there is no password to drop, and null as null", async () => {
    const found = { session, user: ada as AdapterUser }
    const plain = hidePasswordField({ ...adapterAnswering(ada as AdapterUser), getSessionAndUser: async () => found })!
    expect(await plain.getSessionAndUser!("t")).toBe(found)
    const nobody = hidePasswordField(adapterAnswering(null))!
    expect(await nobody.getSessionAndUser!("t")).toBeNull()
    expect(await nobody.getUser!("1")).toBeNull()
  })

  it("a method that throws is a rejection, as it was from an async wrapper", async () => {
    const hidden = hidePasswordField({ getUser: () => { throw new Error("connection lost") }, getSessionAndUser: () => { throw new Error("connection lost") } } as unknown as Adapter)!
    const answer = hidden.getUser!("1")
    expect(answer).toBeInstanceOf(Promise)
    await expect(answer).rejects.toThrow("connection lost")
    await expect(hidden.getSessionAndUser!("t")).rejects.toThrow("connection lost")
  })

  it("calls the method the adapter holds when called, so one replaced after createAuth is the one used", async () => {
    const adapter = adapterAnswering(ada as AdapterUser)
    const hidden = hidePasswordField(adapter)!
    adapter.getUser = async () => ({ ...withHash, name: "replaced" }) as AdapterUser
    expect(await hidden.getUser!("1")).toEqual({ ...ada, name: "replaced" })
  })
})
