import { calculateJwkThumbprint } from "jose"
import { describe, expect, it } from "vitest"
import { deriveBytes } from "../../src/jwt/keys.js"
import { backend, codec, PLAIN, SECRET, SECURE } from "./support.js"

// Expected values computed independently with node:crypto's hkdfSync and createHash.
const VECTORS = [
  {
    salt: PLAIN,
    enc: "A256CBC-HS512",
    key: "58d2106b17f665ff485efd5734b38a642ce0ca6c71b6ea579c3fc14bc000ca1a359d451f11f185996ada6906b8802df94af63ab199385a27d90a51aafe49bcb8",
    kid: "juqqSSq9_Fwe3xHvcamEHBZXiWsehtSapCHQK8had5j0O5kU_Dc1CHXvJhYCrnH5pFpyCOvw4E0i9okvl454HA",
    header:
      "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoianVxcVNTcTlfRndlM3hIdmNhbUVIQlpYaVdzZWh0U2FwQ0hRSzhoYWQ1ajBPNWtVX0RjMUNIWHZKaFlDcm5INXBGcHlDT3Z3NEUwaTlva3ZsNDU0SEEifQ",
  },
  {
    salt: SECURE,
    enc: "A256CBC-HS512",
    key: "0bf6abbf95f9c77c805ce7412107722cc97ec1339cf4027c8e83d26d1f96b189949874e938f60e69d629cd2a8a6be1f599fdb564f7c860757c196e6640952df9",
    kid: "6wP7il2wdbLOUQwDuqpDIWJlrWaXYgkRHQPvOlUb0nDY1R8u5xfodqneTMsdfLIIemNbsCQMLlQGEKxRr1nV8Q",
    header:
      "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2Q0JDLUhTNTEyIiwia2lkIjoiNndQN2lsMndkYkxPVVF3RHVxcERJV0pscldhWFlna1JIUVB2T2xVYjBuRFkxUjh1NXhmb2RxbmVUTXNkZkxJSWVtTmJzQ1FNTGxRR0VLeFJyMW5WOFEifQ",
  },
  {
    salt: PLAIN,
    enc: "A256GCM",
    key: "58d2106b17f665ff485efd5734b38a642ce0ca6c71b6ea579c3fc14bc000ca1a",
    kid: "L7SflqWFhG7Xy4G5q4EguWr7lwVlnYNZRcZ4sFle6zo",
    header: "eyJhbGciOiJkaXIiLCJlbmMiOiJBMjU2R0NNIiwia2lkIjoiTDdTZmxxV0ZoRzdYeTRHNXE0RWd1V3I3bHdWbG5ZTlpSY1o0c0ZsZTZ6byJ9",
  },
] as const

describe(`fixed vectors (${backend.name})`, () => {
  it.each(VECTORS)("HKDF output for salt $salt and $enc", async ({ salt, enc, key }) => {
    const bytes = await deriveBytes("authjs", enc, SECRET, salt)
    expect(Buffer.from(bytes).toString("hex")).toBe(key)
  })

  it.each(VECTORS)("kid and protected header for salt $salt and $enc", async ({ salt, enc, key, kid, header }) => {
    const derived = await codec.keys.get("authjs", enc, SECRET, salt)
    expect(derived.kid).toBe(kid)
    expect(derived.header).toBe(header)
    const k = Buffer.from(key, "hex").toString("base64url")
    expect(await calculateJwkThumbprint({ kty: "oct", k }, enc === "A256GCM" ? "sha256" : "sha512")).toBe(kid)
    expect(JSON.parse(Buffer.from(header, "base64url").toString())).toEqual({ alg: "dir", enc, kid })
  })

  it("the header written by encode has exactly alg, enc and kid, and an empty key part", async () => {
    const token = await codec.encode({ token: { sub: "1" }, secret: SECRET, salt: PLAIN })
    const [header, encryptedKey] = token.split(".")
    expect(header).toBe(VECTORS[0].header)
    expect(encryptedKey).toBe("")
  })

  it("next-auth v4 key derivation", async () => {
    const bytes = await deriveBytes("next-auth-v4", "A256GCM", SECRET, "ignored")
    expect(Buffer.from(bytes).toString("hex")).toBe("051f43d85f11d09e1fdca2411fdb3c4a406b452cf944d8ad6a7af0b0034caace")
  })
})
