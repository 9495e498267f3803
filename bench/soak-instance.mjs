// One app process of `npm run soak -- --instances N`, forked by bench/soak-instances.mjs: its own
// createAuth with @auth/pg-adapter on the run's schema (SOAK_SCHEMA), database sessions, and a
// credentials provider whose `authorize` answers the user rows the parent created (SOAK_USERS).
// Serves the handler on 127.0.0.1 at a free port, which it sends to the parent, and exits when told
// to (SIGTERM) or when the parent goes away (the IPC channel closes).
import { createServer } from "node:http"
import PostgresAdapter from "@auth/pg-adapter"
import { createAuth } from "latchkey"
import { toWebHandler } from "latchkey/node"
import { schemaPool } from "./postgres.mjs"

const MAX_LOGGED_ERRORS = 3
const usersByName = new Map(JSON.parse(process.env.SOAK_USERS).map((user) => [user.name, user]))
const pool = schemaPool(process.env.SOAK_SCHEMA, 8)
let errors = 0
let closing = false

const { handler } = createAuth({
  secret: process.env.SOAK_SECRET,
  trustHost: true,
  env: {},
  adapter: PostgresAdapter(pool),
  session: { strategy: "database" },
  providers: [
    {
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: { username: {} },
      // pg ids are numbers; latchkey wants the id as a string, and finds the row with getUser.
      authorize: (fields) => usersByName.get(String(fields.username)) ?? null,
    },
  ],
  logger: {
    error: (error) => {
      // Requests still in flight when the instance is stopped fail on the closed pool: not counted.
      if (closing) return
      errors += 1
      if (errors <= MAX_LOGGED_ERRORS) console.error(`instance ${process.env.SOAK_INSTANCE}:`, error)
    },
    warn: () => {},
  },
})

const server = createServer(toWebHandler(handler))
server.keepAliveTimeout = 10_000
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve))
process.send({ port: server.address().port })

async function close() {
  if (closing) return
  closing = true
  server.closeAllConnections()
  server.close()
  await pool.end().catch(() => {})
  process.exit(0)
}
process.on("SIGTERM", close)
process.on("SIGINT", close)
process.on("disconnect", close)
process.on("message", (message) => {
  if (message === "errors") process.send({ errors })
})
