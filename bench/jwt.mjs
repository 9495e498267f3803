// Session-token hot path: latchkey against @auth/core and a raw-crypto lower bound, in one process.
// Run under plain Node for the node:crypto backend, and with --conditions=worker for WebCrypto
// (the condition an edge bundler sets). Prints a Markdown table of µs per operation and ratios.
import * as authjs from "@auth/core/jwt"
import { Bench } from "tinybench"
import { decode, encode, getToken } from "latchkey/jwt"
import { rawLowerBound } from "./raw.mjs"

const secret = "latchkey-bench-secret-0123456789abcdef0123"
const salt = "authjs.session-token"
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/ada.png", sub: "8f1e2d3c" }
const token = await encode({ token: claims, secret, salt })
const request = new Request("https://app.example.com/", { headers: { cookie: `theme=dark; ${salt}=${token}; _ga=GA1.1.1` } })
const raw = await rawLowerBound(secret, salt, token)
const backend = process.execArgv.some((arg) => arg.includes("worker")) ? "webcrypto" : "node"

const cases = {
  decode: {
    latchkey: () => decode({ token, secret, salt }),
    authjs: () => authjs.decode({ token, secret, salt }),
    raw: raw.decode,
  },
  getToken: {
    latchkey: () => getToken({ req: request, secret, secureCookie: false }),
    authjs: () => authjs.getToken({ req: request, secret, secureCookie: false }),
    raw: raw.decode,
  },
  encode: {
    latchkey: () => encode({ token: claims, secret, salt }),
    authjs: () => authjs.encode({ token: claims, secret, salt }),
    raw: raw.encode,
  },
}

const rows = []
for (const [operation, contenders] of Object.entries(cases)) {
  const bench = new Bench({ time: 1500, warmup: true, warmupTime: 300 })
  for (const [name, fn] of Object.entries(contenders)) bench.add(name, fn)
  await bench.run()
  const mean = (name) => bench.tasks.find((task) => task.name === name).result.latency.mean * 1000
  rows.push({ operation, latchkey: mean("latchkey"), authjs: mean("authjs"), raw: mean("raw") })
}

const us = (value) => value.toFixed(1)
console.log(`\nbackend: ${backend} (Node ${process.versions.node})\n`)
console.log("| operation | latchkey µs/op | @auth/core µs/op | raw crypto µs/op | latchkey speed-up vs @auth/core | latchkey / raw |")
console.log("|---|---:|---:|---:|---:|---:|")
for (const row of rows) {
  console.log(
    `| ${row.operation} (${backend}) | ${us(row.latchkey)} | ${us(row.authjs)} | ${us(row.raw)} | ${(row.authjs / row.latchkey).toFixed(1)}× | ${(row.latchkey / row.raw).toFixed(2)}× |`
  )
}
