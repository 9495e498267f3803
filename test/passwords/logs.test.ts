// What the password routes log when the app's database fails: a driver's error may quote the row it
// was handed (mysql2's duplicate entry names the address), so the routes log it the way the handler
// logs every other route's failure, as an AdapterError built from the driver's code. Regression: a
// JSON post (latchkey/client, a server action) was logged raw, address included, while the same
// request as a form was logged clean.
import { describe, expect, it } from "vitest"
import { memoryAdapter } from "../../src/adapters/memory-adapter.js"
import type { Adapter } from "../../src/adapters/adapter.js"
import { GOOD, passwordApp, type PostOptions } from "./flows-support.js"

const VICTIM = "victim.address@example.com"

/** A driver's error as mysql2 throws it for a unique email column. */
function mysqlDuplicate(email: string): Error {
  const error = new Error(`Duplicate entry '${email}' for key 'User.email'`)
  return Object.assign(error, { code: "ER_DUP_ENTRY", errno: 1062, sqlState: "23000", sqlMessage: error.message })
}

/** A driver's error as node-postgres throws it: the value is in `detail`. */
function postgresDuplicate(email: string): Error {
  const error = new Error(`duplicate key value violates unique constraint "users_email_key"`)
  return Object.assign(error, { code: "23505", detail: `Key (email)=(${email}) already exists.`, constraint: "users_email_key" })
}

/** The memory adapter, whose createUser fails as a database with a unique email column would in a race. */
function failingAdapter(driverError: (email: string) => Error): Adapter {
  const base = memoryAdapter()
  return Object.assign(base, {
    createUser: async (user: { email: string }) => {
      throw driverError(user.email)
    },
  })
}

/** Everything a logger was handed, as text: messages, stacks, causes, warnings. */
function everythingLogged(app: ReturnType<typeof passwordApp>): string {
  const errors = app.errors.map((error) => {
    const { message, stack, cause } = error as Error
    return `${message} ${stack} ${JSON.stringify(error)} ${JSON.stringify(cause)} ${String(cause)}`
  })
  return [...app.logs, ...errors].join("\n")
}

const MODES: [string, PostOptions][] = [
  ["a JSON body", { json: true }],
  ["latchkey/client's header", { script: true }],
  ["a form", {}],
]

describe.each([
  ["mysql2", mysqlDuplicate, "ER_DUP_ENTRY"],
  ["node-postgres", postgresDuplicate, "23505"],
] as const)("a password route whose %s driver error quotes the address", (_, driverError, code) => {
  it.each(MODES)("logs the driver's code and not the address, posted as %s", async (_mode, options) => {
    const app = passwordApp({ adapter: failingAdapter(driverError) })
    const answer = await app.browser().signUp({ email: VICTIM, password: GOOD }, options)
    expect(answer.status).toBe(options.json || options.script ? 500 : 302)
    expect(app.errors).toHaveLength(1)
    expect(app.errors[0]).toMatchObject({ name: "AdapterError", code: "ERR_ADAPTER" })
    expect((app.errors[0] as Error).message).toContain(code)
    expect(everythingLogged(app)).not.toContain(VICTIM)
  })
})

describe("a password route whose app code throws its own error", () => {
  it("logs that error as it is", async () => {
    const own = new Error("the app's createUser is not wired yet")
    const app = passwordApp({ adapter: failingAdapter(() => own) })
    const answer = await app.browser().signUp({ email: VICTIM, password: GOOD }, { json: true })
    expect(answer.status).toBe(500)
    expect(app.errors).toEqual([own])
  })
})
