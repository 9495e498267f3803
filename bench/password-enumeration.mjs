// npm run bench -- password-enumeration: does an unknown address take as long as a known one?
// For sign-in (a wrong password), sign-up and forgot-password, createAuth's handler (dist/, the
// Password provider and the passwords plug-in, memoryAdapter, JWT sessions, rate limits off)
// answers a known and an unknown address in turns: each round times one request of each, the
// first one alternating, so a busy machine weighs on both alike. Each request is a browser's form
// post with a fresh CSRF token (fetched untimed). Printed per route: the median wall time of each
// with its range, and the per-round ratio unknown/known as a median with its range. An attacker
// needs a ratio away from 1.00× that the range does not cross.
// PASSWORD_ENUMERATION_ROUNDS (default 15) tunes it.
import { createAuth } from "latchkey"
import { memoryAdapter } from "latchkey/adapters"
import { passwords } from "latchkey/passwords"
import Password from "latchkey/providers/password"
import { machineWithLoad, median, ratioText, README_MODE } from "./method.mjs"

const ROUNDS = Number(process.env.PASSWORD_ENUMERATION_ROUNDS ?? 15)
const ORIGIN = "https://app.example.com"
const KNOWN = "ada@example.com"
const PASSWORD = "ada lovelace's analytical engine"
const mailbox = []

const { handler } = createAuth({
  secret: "latchkey-bench-secret-0123456789abcdef0123",
  env: { AUTH_URL: `${ORIGIN}/auth` },
  adapter: memoryAdapter(),
  session: { strategy: "jwt" },
  rateLimits: false,
  providers: [Password({ sendEmail: async (mail) => void mailbox.push(mail) })],
  passwords,
  logger: { error() {}, warn() {}, debug() {} },
})

/** A fresh CSRF token and its cookie (untimed). */
async function csrf() {
  const response = await handler(new Request(`${ORIGIN}/auth/csrf`))
  const { csrfToken } = await response.json()
  return { csrfToken, cookie: response.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ") }
}

/** Milliseconds for the handler to answer one form post, body read. */
async function timed(path, fields) {
  const { csrfToken, cookie } = await csrf()
  const request = new Request(`${ORIGIN}${path}`, {
    method: "POST",
    headers: { cookie, "content-type": "application/x-www-form-urlencoded", "x-auth-return-redirect": "1" },
    body: new URLSearchParams({ ...fields, csrfToken }).toString(),
  })
  const start = performance.now()
  const response = await handler(request)
  await response.arrayBuffer()
  return performance.now() - start
}

// The known user: signed up and verified through the mailed link.
await timed("/auth/password/sign-up", { email: KNOWN, password: PASSWORD })
const link = mailbox.flatMap((mail) => [...mail.text.matchAll(/https:\/\/\S+\/password\/verify-email\?\S+/g)].map((match) => match[0])).at(-1)
if (!link) throw new Error("bench/password-enumeration.mjs: no verification link was mailed")
await handler(new Request(link))

let unknownCount = 0
const unknown = () => `nobody${++unknownCount}@example.com`
const ROUTES = {
  "sign-in": (email) => timed("/auth/callback/password", { email, password: "not the password, long enough" }),
  "sign-up": (email) => timed("/auth/password/sign-up", { email, password: "someone else's long passphrase" }),
  forgot: (email) => timed("/auth/password/forgot", { email }),
}

const range = (values) => `${median(values).toFixed(1)} ms (${Math.min(...values).toFixed(1)}–${Math.max(...values).toFixed(1)})`
const lines = []
for (const [route, send] of Object.entries(ROUTES)) {
  // Warm-up: one of each.
  await send(KNOWN)
  await send(unknown())
  const known = []
  const stranger = []
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      known.push(await send(KNOWN))
      stranger.push(await send(unknown()))
    } else {
      stranger.push(await send(unknown()))
      known.push(await send(KNOWN))
    }
  }
  const ratios = stranger.map((time, i) => time / known[i])
  lines.push(`${route.padEnd(8)} known ${range(known)}, unknown ${range(stranger)}, unknown/known ${ratioText(ratios)}`)
}

if (!README_MODE) console.log(`\nPassword routes, known vs unknown address (${ROUNDS} interleaved rounds each; ${machineWithLoad()})`)
for (const line of lines) console.log(line)
