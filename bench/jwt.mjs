// Session-token hot path: latchkey against @auth/core and the raw-crypto limit (bench/raw.mjs), in
// one process, interleaved over rounds (bench/method.mjs). Run under plain Node for the node:crypto
// backend, and with --conditions=worker for WebCrypto (the condition an edge bundler sets). Every
// contender's answer is checked before timing, so nothing fast-but-wrong is measured.
//
// Prints, under the machine line: µs per operation (median and range over rounds); latchkey's
// speed-up over @auth/core; and latchkey's share of the limit, raw time / latchkey time (1.00 would
// be the limit itself; issue 18's target is 0.90 or more). getToken's limit also reads the Cookie
// header and slices the token out (bench/raw.mjs). JWT_ROUNDS and JWT_SLICE_MS tune it.
import * as authjs from "@auth/core/jwt"
import { cryptoBackend, decode, encode, getToken } from "latchkey/jwt"
import { fractionText, interleave, machineWithLoad, median, perRound, ratioText, README_MODE, us } from "./method.mjs"
import { rawLowerBound } from "./raw.mjs"

const ROUNDS = Math.max(5, Number(process.env.JWT_ROUNDS ?? 25))
const SLICE_MS = Number(process.env.JWT_SLICE_MS ?? 80)

const secret = "latchkey-bench-secret-0123456789abcdef0123"
const salt = "authjs.session-token"
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: "https://example.com/ada.png", sub: "8f1e2d3c" }
const token = await encode({ token: claims, secret, salt })
// A browser's header: the session cookie between an app preference and an analytics cookie.
const request = new Request("https://app.example.com/", { headers: { cookie: `theme=dark; ${salt}=${token}; _ga=GA1.1.1` } })
const raw = await rawLowerBound(secret, salt, token, claims)

const operations = {
  decode: {
    "@auth/core": () => authjs.decode({ token, secret, salt }),
    latchkey: () => decode({ token, secret, salt }),
    raw: raw.decode,
  },
  getToken: {
    "@auth/core": () => authjs.getToken({ req: request, secret, secureCookie: false }),
    latchkey: () => getToken({ req: request, secret, secureCookie: false }),
    raw: () => raw.getToken(request),
  },
  encode: {
    "@auth/core": () => authjs.encode({ token: claims, secret, salt }),
    latchkey: () => encode({ token: claims, secret, salt }),
    raw: raw.encode,
  },
}

// Every contender answers the same claims, and every token written opens with latchkey's decode.
for (const [operation, contenders] of Object.entries(operations)) {
  for (const [name, fn] of Object.entries(contenders)) {
    const answer = await fn()
    const read = operation === "encode" ? await decode({ token: answer, secret, salt }) : answer
    if (read?.email !== claims.email || read?.sub !== claims.sub) throw new Error(`${name} ${operation} answered ${JSON.stringify(answer)}`)
  }
}

const rows = []
for (const [operation, contenders] of Object.entries(operations)) {
  const times = await interleave(contenders, { rounds: ROUNDS, sliceMs: SLICE_MS })
  rows.push({
    operation,
    times,
    speedUp: perRound(times["@auth/core"], times.latchkey),
    share: perRound(times.raw, times.latchkey),
  })
}

const backend = cryptoBackend === "node" ? "node:crypto" : "WebCrypto"
const heading = `session tokens, ${backend} backend (${ROUNDS} interleaved rounds of ${SLICE_MS} ms per contender)`
const machine = `machine: ${machineWithLoad()}`
const readmeHeader = ["| operation | latchkey µs/op | speed-up over @auth/core | share of the raw limit |", "|---|---:|---:|---:|"]
const readmeRows = rows.map(({ operation, times, speedUp, share }) => `| ${operation} (${backend}) | ${us(median(times.latchkey))} | ${ratioText(speedUp, 1)} | ${fractionText(share)} |`)

if (README_MODE) {
  console.log(`\n${heading}\n${machine}\n`)
  console.log([...readmeHeader, ...readmeRows].join("\n"))
} else {
  const range = (values) => `${us(Math.min(...values))}–${us(Math.max(...values))}`
  console.log(`\n${heading}`)
  console.log(`${machine}\n`)
  console.log("| operation | latchkey µs/op | @auth/core µs/op | raw limit µs/op | speed-up over @auth/core | share of the raw limit (raw ÷ latchkey) |")
  console.log("|---|---:|---:|---:|---:|---:|")
  for (const { operation, times, speedUp, share } of rows) {
    const cell = (name) => `${us(median(times[name]))} (${range(times[name])})`
    console.log(`| ${operation} (${backend}) | ${cell("latchkey")} | ${cell("@auth/core")} | ${cell("raw")} | ${ratioText(speedUp, 1)} | ${fractionText(share)} |`)
  }
  console.log("\nMedians over rounds, ranges in brackets; each ratio is taken within a round, then the median and range of those. README lines:\n")
  console.log([...readmeHeader, ...readmeRows].join("\n"))
}
