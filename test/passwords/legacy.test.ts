// Legacy hashes: an Auth.js credentials app's bcrypt (bcryptjs, as its examples use) and argon2
// (@node-rs/argon2) hashes, made by those libraries here, verify through the documented verifiers,
// are flagged for rehashing on success, and stop being flagged once replaced. An unclaimed scheme
// or a verifier that throws or answers a non-boolean is a typed error, never a silent result.
import { hash as argon2Hash, verify as argon2Verify } from "@node-rs/argon2"
import bcrypt from "bcryptjs"
import { describe, expect, it } from "vitest"
import { InvalidOptionError, InvalidPasswordHashError } from "../../src/errors.js"
import type { LegacyVerifier } from "../../src/passwords/legacy.js"
import { CHEAP, hasherOn, nodeKdf, rejection } from "./support.js"

// bcryptjs answers false for a truncated hash rather than throwing, so the verifier claims only a
// whole bcrypt string: a damaged one is then an error, not a "wrong password".
const bcryptVerifier: LegacyVerifier = { id: "bcrypt", matches: (stored) => /^\$2[aby]\$(0[4-9]|[12]\d|3[01])\$[./A-Za-z0-9]{53}$/.test(stored), verify: (password, stored) => bcrypt.compare(password, stored) }
const argon2Verifier: LegacyVerifier = { id: "argon2", matches: (stored) => stored.startsWith("$argon2"), verify: (password, stored) => argon2Verify(stored, password) }
const PASSWORD = "hunter2-but-longer"

describe("legacy hashes", () => {
  const hasher = hasherOn(nodeKdf, { ...CHEAP, legacy: [bcryptVerifier, argon2Verifier] })

  it("a bcryptjs hash (cost 10) verifies and is flagged for rehash; a wrong password is not", async () => {
    const stored = await bcrypt.hash(PASSWORD, 10)
    expect(stored).toMatch(/^\$2b\$10\$/)
    expect(await hasher.verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
    expect(await hasher.verify("hunter3-but-longer", stored)).toEqual({ valid: false, needsRehash: false })
    expect(await hasher.needsRehash(stored)).toBe(true)
  })

  it("an argon2id hash from @node-rs/argon2 verifies and is flagged for rehash", async () => {
    const stored = await argon2Hash(PASSWORD)
    expect(stored).toMatch(/^\$argon2id\$/)
    expect(await hasher.verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: true })
    expect(await hasher.verify("not the password at all", stored)).toEqual({ valid: false, needsRehash: false })
  })

  it("after the rehash, the user signs in on latchkey's hash and nothing is flagged", async () => {
    let stored = await bcrypt.hash(PASSWORD, 10)
    const first = await hasher.verify(PASSWORD, stored)
    if (first.needsRehash) stored = await hasherOn(nodeKdf, { ...CHEAP, policy: { minLength: 8 } }).hash(PASSWORD)
    expect(stored.startsWith("$scrypt$")).toBe(true)
    expect(await hasher.verify(PASSWORD, stored)).toEqual({ valid: true, needsRehash: false })
  })

  it("the legacy verifier is given the password as typed, not NFKC-normalised (the old hash was made from it)", async () => {
    const typed = "ＰａｓｓｗｏｒｄＰａｓｓｗｏｒｄ"
    const stored = await bcrypt.hash(typed, 4)
    expect((await hasher.verify(typed, stored)).valid).toBe(true)
  })

  it("a scheme no verifier claims is unsupported_algorithm", async () => {
    const error = await rejection(hasherOn(nodeKdf, CHEAP).verify(PASSWORD, await bcrypt.hash(PASSWORD, 4)))
    expect(error).toBeInstanceOf(InvalidPasswordHashError)
    expect(error.reason).toBe("unsupported_algorithm")
    expect((await rejection(hasher.verify(PASSWORD, "5f4dcc3b5aa765d61d8327deb882cf99"))).reason).toBe("unsupported_algorithm")
  })

  it("a throwing verifier and a non-boolean answer are malformed", async () => {
    const throwing: LegacyVerifier = { id: "own", matches: () => true, verify: () => Promise.reject(new Error(`bad hash ${PASSWORD}`)) }
    const error = await rejection(hasherOn(nodeKdf, { ...CHEAP, legacy: [throwing] }).verify(PASSWORD, "own:abc"))
    expect(error).toMatchObject({ reason: "malformed" })
    expect(error.message).not.toContain(PASSWORD)
    const truthy: LegacyVerifier = { id: "own", matches: () => true, verify: () => "yes" as never }
    expect(await rejection(hasherOn(nodeKdf, { ...CHEAP, legacy: [truthy] }).verify(PASSWORD, "own:abc"))).toMatchObject({ reason: "malformed" })
  })

  it("a damaged bcrypt hash is an error, not a wrong password (bcryptjs alone would answer false)", async () => {
    const damaged = (await bcrypt.hash(PASSWORD, 4)).slice(0, 40)
    expect(await bcrypt.compare(PASSWORD, damaged)).toBe(false)
    expect(await rejection(hasher.verify(PASSWORD, damaged))).toBeInstanceOf(InvalidPasswordHashError)
  })

  it("a verifier without matches or verify is refused when the hasher is made", () => {
    expect(() => hasherOn(nodeKdf, { ...CHEAP, legacy: [{ id: "x", matches: () => true } as never] })).toThrow(InvalidOptionError)
  })
})
