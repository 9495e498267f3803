// Hostile session tokens: a hand-built corpus of every known trick, and fast-check-generated
// inputs, well over 100 000 in all, through decode and getToken. Required: zero accepted, zero
// crashes (anything but a typed LatchkeyError from decode, or any throw from getToken), and a 1 MB
// token refused without decrypting.
import fc from "fast-check"
import { describe, expect, it, onTestFinished, vi } from "vitest"
import { LatchkeyError } from "../../src/errors.js"
import { backend } from "../../src/jwt/backend/node.js"
import { createCodec } from "../../src/jwt/codec.js"
import { getToken } from "../../src/jwt/get-token.js"

const codec = createCodec(backend)
const SECRET = "latchkey-test-secret-0123456789abcdef"
const SALT = "authjs.session-token"
const b64 = (text: string | Uint8Array) => Buffer.from(text).toString("base64url")

/**
 * One test's tally, printed when the test finishes, and `attack`, which decodes one hostile token
 * and records the outcome there. No test reads another's counts.
 */
function fuzzRun(name: string) {
  const tally = { tried: 0, rejected: 0, accepted: 0, crashed: 0 }
  onTestFinished(() => console.log(`session token fuzz "${name}": ${tally.tried} inputs tried, ${tally.rejected} rejected, ${tally.accepted} accepted, ${tally.crashed} crashed`))
  async function attack(token: string): Promise<void> {
    tally.tried++
    try {
      const claims = await codec.decode({ token, secret: SECRET, salt: SALT })
      if (claims === null && token === "") tally.rejected++
      else tally.accepted++
    } catch (error) {
      if (error instanceof LatchkeyError) tally.rejected++
      else tally.crashed++
    }
  }
  return { tally, attack }
}

/** A token sealed with the real key but an arbitrary protected header and plaintext. */
async function sealed(header: Record<string, unknown> | string, plaintext = JSON.stringify({ sub: "x", exp: Math.floor(Date.now() / 1000) + 3600 })) {
  const key = await codec.keys.get("authjs", "A256CBC-HS512", SECRET, SALT)
  const encodedHeader = typeof header === "string" ? b64(header) : b64(JSON.stringify({ alg: "dir", enc: "A256CBC-HS512", kid: key.kid, ...header }))
  const parts = await codec.backend.seal(key.prepared, encodedHeader, plaintext)
  return `${encodedHeader}..${parts.iv}.${parts.ciphertext}.${parts.tag}`
}

function flipEveryBit(token: string): string[] {
  const parts = token.split(".")
  const out: string[] = []
  parts.forEach((part, index) => {
    const bytes = Buffer.from(part, "base64url")
    for (let bit = 0; bit < bytes.length * 8; bit++) {
      const copy = Buffer.from(bytes)
      copy[bit >> 3]! ^= 1 << (bit & 7)
      const mutated = [...parts]
      mutated[index] = copy.toString("base64url")
      out.push(mutated.join("."))
    }
  })
  return out
}

describe("session token fuzzing", () => {
  it("refuses the hand-built corpus", async () => {
    const { tally, attack } = fuzzRun("hand-built corpus")
    const valid = await codec.encode({ token: { sub: "1", role: "admin" }, secret: SECRET, salt: SALT })
    const now = Math.floor(Date.now() / 1000)
    const corpus: string[] = [
      ...(await Promise.all(
        [{ alg: "none" }, { alg: "RSA-OAEP" }, { alg: "A256KW" }, { enc: "A128GCM" }, { enc: "A128CBC-HS256" }, { zip: "DEF" }, { crit: ["exp"] }, { kid: "k".repeat(10_240) }, { p2c: 1_000_000, p2s: "c2FsdA" }].map((header) => sealed(header))
      )),
      await sealed('{"alg":"dir","enc":"A256CBC-HS512","alg":"none"}'),
      await sealed('{"alg":"dir","enc":"A256CBC-HS512","__proto__":{"alg":"none"}}'),
      await sealed({}, `{"sub":"x","sub":"admin","exp":${now + 3600}}`),
      await sealed({}, `{"sub":"x","__proto__":{"admin":true},"exp":${now + 3600}}`),
      ...flipEveryBit(valid),
      ...Array.from({ length: valid.length }, (_, length) => valid.slice(0, length)).filter((token) => token !== ""),
      ...["A", "AA", "=", ".", "..", "x".repeat(40)].map((extra) => valid + extra),
      ...[valid.replace(/(\.[^.]*\.)([^.]*)\./, "$1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAA.")],
      ...valid.split(".").flatMap((_, index) =>
        ["=", "==", " ", "\n", "+", "/"].map((junk) => valid.split(".").map((part, i) => (i === index ? part + junk : part)).join("."))
      ),
      "x".repeat(1_048_577),
    ]
    expect(corpus.length).toBeGreaterThan(1_000)
    const open = vi.spyOn(codec.backend, "open")
    for (const token of corpus) await attack(token)
    expect(tally.tried).toBe(corpus.length)
    const largeAttempts = open.mock.calls.filter(([, aad]) => aad.length > 100_000)
    expect(largeAttempts).toHaveLength(0)
    open.mockRestore()
    expect(tally.accepted).toBe(0)
    expect(tally.crashed).toBe(0)
  })

  it("refuses 100 000 generated tokens", async () => {
    const { tally, attack } = fuzzRun("100 000 generated tokens")
    const valid = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    const [header] = valid.split(".")
    const segment = fc.string({ unit: fc.constantFrom(..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".split("")), maxLength: 64 })
    const hostile = fc.oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: "binary", maxLength: 200 }),
      fc.tuple(segment, segment, segment).map(([iv, ciphertext, tag]) => `${header}..${iv}.${ciphertext}.${tag}`),
      fc.tuple(fc.nat({ max: valid.length - 1 }), fc.constantFrom(..."AQgw-_019.=+/ ".split(""))).map(([at, char]) => valid.slice(0, at) + char + valid.slice(at + 1))
    ).filter((token) => token !== valid && token !== "")
    await fc.assert(
      fc.asyncProperty(hostile, async (token) => {
        await attack(token)
      }),
      { numRuns: 100_000 }
    )
    expect(tally.tried).toBe(100_000)
    expect(tally.accepted).toBe(0)
    expect(tally.crashed).toBe(0)
  }, 300_000)

  it("getToken answers null, never throws, for hostile cookie headers, 500 chunks included", async () => {
    const { tally } = fuzzRun("hostile cookie headers")
    const hostileHeaders = [
      Array.from({ length: 500 }, (_, index) => `${SALT}.${index}=AAAA`).join("; "),
      `${SALT}=${"x".repeat(1_048_577)}`,
      `${SALT}.0=a; ${SALT}.2=b`,
      `${SALT}.00=a; ${SALT}.0x=b`,
      "\u0000=\u0001; ;;=",
    ]
    for (const cookie of hostileHeaders) {
      tally.tried++
      const result = await getToken({ req: { headers: { cookie } }, secret: SECRET }).catch(() => "threw")
      if (result === "threw") tally.crashed++
      else if (result === null) tally.rejected++
      else tally.accepted++
    }
    expect(tally.tried).toBe(hostileHeaders.length)
    expect(tally.accepted).toBe(0)
    expect(tally.crashed).toBe(0)
  })
})
