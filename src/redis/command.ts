/**
 * One way to send a command over whichever Redis client the app has: ioredis's `call`, or
 * node-redis's `sendCommand`. Every store in `latchkey/redis` goes through it, so latchkey depends
 * on no Redis library.
 */
import { InvalidOptionError } from "../errors.js"

/**
 * What the Redis stores need of a client: ioredis's `call`, or node-redis's `sendCommand`.
 *
 * Exported from `latchkey/redis`.
 *
 * @example
 * ```ts
 * import Redis from "ioredis"
 * import type { RedisCommandClient } from "latchkey/redis"
 * const client: RedisCommandClient = new Redis(process.env.REDIS_URL!)
 * ```
 */
export type RedisCommandClient =
  | { call(command: string, ...args: (string | number)[]): Promise<unknown> }
  | { sendCommand(args: string[]): Promise<unknown> }

/** A function sending one command (name first) over `client`; `store` names the caller in the error for a client of neither kind. */
export function commandSender(client: RedisCommandClient, store: string): (args: string[]) => Promise<unknown> {
  if (typeof (client as { call?: unknown })?.call === "function") {
    const ioredis = client as { call(command: string, ...args: string[]): Promise<unknown> }
    return ([name, ...args]) => ioredis.call(name!, ...args)
  }
  if (typeof (client as { sendCommand?: unknown })?.sendCommand === "function") {
    const nodeRedis = client as { sendCommand(args: string[]): Promise<unknown> }
    return (args) => nodeRedis.sendCommand(args)
  }
  throw new InvalidOptionError("client", `${store} needs an ioredis client (call) or a node-redis client (sendCommand).`)
}

/**
 * `send`, each command raced against `timeoutMs`: a Redis that takes the connection but never
 * answers (a partition, a stuck failover) must not hold a sign-in or a revocation forever. The
 * command itself is not cancelled; its late answer is dropped.
 */
export function withDeadline(send: (args: string[]) => Promise<unknown>, timeoutMs: number): (args: string[]) => Promise<unknown> {
  return (args) => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs)
    })
    return Promise.race([send(args), late]).finally(() => clearTimeout(timer))
  }
}

/** A whole number of milliseconds of at least `least`, or `fallback` when not given; refused by name otherwise. */
export function wholeMs(value: number | undefined, name: string, fallback: number, least: number): number {
  if (value === undefined) return fallback
  if (!Number.isSafeInteger(value) || value < least) throw new InvalidOptionError(name, `${name} must be a whole number of milliseconds, at least ${least}.`)
  return value
}
