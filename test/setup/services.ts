/**
 * The real servers every machine runs for the tests (PostgreSQL, MariaDB, Redis: see the node-svc
 * machine notes), and the one probe that tells whether one answers. A suite that needs a server
 * asks `unreachable` and skips with the printed reason when it says one; under `CI=true` the
 * servers are part of the run, so `requireService` turns that reason into a failure instead.
 */
import { connect } from "node:net"
import Redis from "ioredis"
import { afterAll, beforeAll } from "vitest"

export const POSTGRES = { host: "127.0.0.1", port: 5432, user: "postgres", database: "test" }
export const MARIADB = { host: "127.0.0.1", port: 3306, user: "root", password: "" }
export const REDIS = { host: "127.0.0.1", port: 6379 }

/** How long a probe waits for a TCP connection. */
export const PROBE_TIMEOUT_MS = 1_000

/** Why `service` at `host:port` cannot be used here, such as "Redis is not reachable at 127.0.0.1:6379 (ECONNREFUSED)", or undefined when it answers. */
export function unreachable(service: string, { host, port }: { host: string; port: number }): Promise<string | undefined> {
  return new Promise((resolve) => {
    const socket = connect({ host, port })
    const settle = (reason: string | undefined) => {
      socket.destroy()
      resolve(reason)
    }
    socket.setTimeout(PROBE_TIMEOUT_MS, () => settle(`${service} is not reachable at ${host}:${port} (no answer within ${PROBE_TIMEOUT_MS} ms)`))
    socket.once("connect", () => settle(undefined))
    socket.once("error", (error: NodeJS.ErrnoException) => settle(`${service} is not reachable at ${host}:${port} (${error.code ?? error.message})`))
  })
}

/** `unreachable`, except that under `CI=true` a missing server throws: there it is a failure, never a skip. */
export async function requireService(service: string, address: { host: string; port: number }): Promise<string | undefined> {
  const reason = await unreachable(service, address)
  if (reason !== undefined && process.env.CI === "true") throw new Error(`CI=true needs ${service}: ${reason}`)
  return reason
}

/** `unreachable` as a matrix entry's `skipReason`: asked when the entry is about to run. */
export const skipReasonFor = (service: string, address: { host: string; port: number }) => () => unreachable(service, address)

/**
 * A real Redis client for one suite: connected before its tests (handed to `use`), its keys under
 * `prefix` deleted and the client closed after them. Off CI a missing Redis leaves `use` uncalled
 * and prints why, so the suite's tests skip themselves; under CI=true they then fail.
 */
export function redisForSuite(prefix: string, use: (client: Redis) => void): void {
  let client: Redis | undefined
  beforeAll(async () => {
    const reason = await unreachable("Redis", REDIS)
    if (reason && process.env.CI !== "true") return console.warn(`skipped: ${reason}`)
    client = new Redis({ ...REDIS, maxRetriesPerRequest: 1 })
    use(client)
  })
  afterAll(async () => {
    if (!client) return
    const keys = await client.keys(`${prefix}*`)
    if (keys.length > 0) await client.del(...keys)
    await client.quit()
  })
}

/**
 * Why better-sqlite3 (a native module built for the Node that installed it, 20 in CI) cannot open a
 * database on this Node, ending with `needed` (what the caller loses); undefined when it can.
 */
export async function sqliteUnavailable(needed: string): Promise<string | undefined> {
  try {
    const Sqlite = (await import("better-sqlite3")).default
    new Sqlite(":memory:").close()
    return undefined
  } catch (failure) {
    return `better-sqlite3 cannot load on Node ${process.versions.node} (${(failure as Error).message.split("\n")[0]}); ${needed}`
  }
}
