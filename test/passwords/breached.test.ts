// The breached-password recipe against a local server that speaks the Pwned Passwords range
// protocol: only the SHA-1's first 5 hex digits are sent, padding is asked for and its zero-count
// decoys never count, a listed password is refused with "breached", and a failed check is
// reported as breach_check_failed rather than letting the password through unseen.
import { createHash } from "node:crypto"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { PasswordPolicyError } from "../../src/errors.js"
import { haveIBeenPwned } from "../../src/passwords/breached.js"
import { CHEAP, counting, hasherOn, nodeKdf, rejection } from "./support.js"

const BREACHED = "password1234567890"
const PADDED = "a padding entry only!"
const FRESH = "violet staircase under the moon"
const sha1 = (text: string) => createHash("sha1").update(text).digest("hex").toUpperCase()

interface Seen {
  path: string
  padding: string | undefined
}
const seen: Seen[] = []
let server: Server
let endpoint: string
let failWith: number | undefined

beforeAll(async () => {
  // The range store: suffix -> count. A padded decoy has count 0, as the real API pads.
  const store = new Map([[sha1(BREACHED), 12345], [sha1(PADDED), 0]])
  server = createServer((request, response) => {
    seen.push({ path: request.url ?? "", padding: request.headers["add-padding"] as string | undefined })
    if (failWith !== undefined) return void response.writeHead(failWith).end()
    const prefix = /^\/range\/([0-9A-F]{5})$/.exec(request.url ?? "")?.[1]
    if (prefix === undefined) return void response.writeHead(400).end()
    const lines = [...store].filter(([hash]) => hash.startsWith(prefix)).map(([hash, count]) => `${hash.slice(5)}:${count}`)
    lines.push("0000000000000000000000000000000000A:0", "0000000000000000000000000000000000B:3")
    response.writeHead(200, { "content-type": "text/plain" }).end(lines.join("\r\n"))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/range/`
})

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

describe("haveIBeenPwned (k-anonymity range protocol)", () => {
  it("refuses a listed password before hashing it, sending only the 5-digit prefix with Add-Padding", async () => {
    seen.length = 0
    const kdf = counting(nodeKdf)
    const hasher = hasherOn(kdf, { ...CHEAP, policy: { isBreached: haveIBeenPwned({ endpoint }) } })
    const error = await rejection(hasher.hash(BREACHED))
    expect(error).toBeInstanceOf(PasswordPolicyError)
    expect(error.reason).toBe("breached")
    expect(kdf.calls).toEqual({ scrypt: 0, pbkdf2: 0 })
    expect(seen).toEqual([{ path: `/range/${sha1(BREACHED).slice(0, 5)}`, padding: "true" }])
    expect(seen[0]!.path).not.toContain(sha1(BREACHED).slice(5))
  })

  it("accepts a password that is not listed, and one listed only as padding (count 0)", async () => {
    const hasher = hasherOn(nodeKdf, { ...CHEAP, policy: { isBreached: haveIBeenPwned({ endpoint }) } })
    expect(await hasher.hash(FRESH)).toMatch(/^\$scrypt\$/)
    expect(await hasher.hash(PADDED)).toMatch(/^\$scrypt\$/)
  })

  it("minCount raises the bar", async () => {
    const lenient = hasherOn(nodeKdf, { ...CHEAP, policy: { isBreached: haveIBeenPwned({ endpoint, minCount: 100_000 }) } })
    expect(await lenient.check(BREACHED)).toBe(BREACHED)
  })

  it("a failing endpoint is breach_check_failed, never a silent pass", async () => {
    failWith = 503
    try {
      const hasher = hasherOn(nodeKdf, { ...CHEAP, policy: { isBreached: haveIBeenPwned({ endpoint }) } })
      const error = await rejection(hasher.hash(FRESH))
      expect(error).toMatchObject({ code: "ERR_PASSWORD_POLICY", reason: "breach_check_failed" })
      expect(error.cause).toMatchObject({ message: expect.stringContaining("503") })
    } finally {
      failWith = undefined
    }
  })

  it("makes no request unless the app passes it (the default rules have no breach check)", async () => {
    seen.length = 0
    await hasherOn(nodeKdf).hash(BREACHED)
    expect(seen).toEqual([])
  })
})
