// `npm run bench -- provider-tokens`: what providerTokens({ refresh: true }) costs a session read that
// needs no refresh (the access token is an hour from expiry), in one process, interleaved over
// rounds (A, B, C, D, E, F, then again), each read awaited before the next. "On" is the app as the
// docs write it (`providerTokens({ refresh: true })` from latchkey/provider-tokens); "off" passes
// no plug-in, as an app that keeps no provider tokens does:
//   A  auth(), JWT session, switch off (the cookie has no provider tokens)
//   B  auth(), JWT session, switch on: the session carries "<expires_at>:<provider>" and the token
//      set is in the provider token cookie, which a read with nothing due does not open
//   C  auth(), database session (memoryAdapter), switch off
//   D  auth(), database session (memoryAdapter), switch on (the per-user memo answers: no query)
//   E  auth(), JWT session, switch off, reading B's cookies: the same decryption as B without the
//      switch's logic, so B/E is the logic alone and B/A adds the bigger session claim
//   F  auth(), JWT session, switch off, reading a session that carries the whole token set in its
//      claim (the first design, before the token cookie): F/A is what that design cost every read
// Tokens are as long as Google's (a 200-character access token, a 100-character refresh token).
// Each round records wall time and this process's CPU time (user + system) per read; on a shared
// machine the CPU time is the steadier of the two. Prints the medians, and the on/off ratios:
// their median across rounds and their range. Issue 15's target: under 1.05 when nothing is due.
// No network, no database server.
import { cpus } from "node:os"
import { createAuth } from "latchkey"
import { encode } from "latchkey/jwt"
import { memoryAdapter } from "latchkey/adapters"
import { providerTokens } from "latchkey/provider-tokens"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const ORIGIN = "http://localhost:3000"
const ROUNDS = Math.max(5, Number(process.env.TOKENS_ROUNDS ?? 9))
const ROUND_MS = Number(process.env.TOKENS_ROUND_MS ?? 700)
const WARMUP_MS = 300
const MAX_READS = 200_000
const COOKIE = "authjs.session-token"
const TOKEN_COOKIE = "latchkey.provider-tokens"

// A provider record as an app writes it; nothing is fetched, since nothing is due.
const corp = { id: "corp", name: "Corp", type: "oidc", issuer: "https://idp.example.com", clientId: "app", clientSecret: "app-secret" }
const now = Math.floor(Date.now() / 1000)
const tokens = {
  provider: "corp",
  access_token: `ya29.${"x".repeat(195)}`,
  refresh_token: `1//0g${"y".repeat(95)}`,
  expires_at: now + 3600,
  token_type: "bearer",
  scope: "openid profile email",
}
// The claims the handler writes at sign-in, with its browser binding (a SHA-256, base64url).
const claims = { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: "user-1", "latchkey.browser": "Y2FmZWJhYmVjYWZlYmFiZWNhZmViYWJlY2FmZWJhYmU" }

/**
 * The Cookie header of a JWT session: `claim` under latchkey.tokens, and with `paired` the token
 * cookie bound to that session token (its SHA-256), as the handler writes them.
 */
async function jwtCookie(claim, paired = false) {
  const token = claim ? { ...claims, "latchkey.tokens": claim } : claims
  const sessionToken = await encode({ token, secret: SECRET, salt: COOKIE, maxAge: 86400 })
  if (!paired) return `${COOKIE}=${sessionToken}`
  const binding = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(sessionToken))).toString("base64url")
  const sealed = await encode({ token: { ...tokens, session: binding }, secret: SECRET, salt: TOKEN_COOKIE, maxAge: 86400 })
  return `${COOKIE}=${sessionToken}; ${TOKEN_COOKIE}=${sealed}`
}

async function databaseCase(on) {
  const adapter = memoryAdapter()
  const user = await adapter.createUser({ name: "Ada Lovelace", email: "ada@example.com", emailVerified: null })
  await adapter.linkAccount({ ...tokens, userId: user.id, type: "oidc", providerAccountId: "user-1" })
  const sessionToken = crypto.randomUUID()
  await adapter.createSession({ sessionToken, userId: user.id, expires: new Date(Date.now() + 86_400_000) })
  const session = { strategy: "database" }
  const { auth } = createAuth({ providers: [corp], adapter, secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, session, ...(on ? { providerTokens: providerTokens({ refresh: true }) } : {}) })
  return { auth, request: new Request(`${ORIGIN}/dashboard`, { headers: { cookie: `${COOKIE}=${sessionToken}` } }) }
}

function jwtCase(on, cookie) {
  const { auth } = createAuth({ providers: [corp], secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, ...(on ? { providerTokens: providerTokens({ refresh: true }) } : {}) })
  return { auth, request: new Request(`${ORIGIN}/dashboard`, { headers: { cookie } }) }
}

const paired = await jwtCookie(`${tokens.expires_at}:corp`, true)
const cases = {
  "A jwt, off": jwtCase(false, await jwtCookie(undefined)),
  "B jwt, on": jwtCase(true, paired),
  "C database, off": await databaseCase(false),
  "D database, on": await databaseCase(true),
  "E jwt, off, B's cookies": jwtCase(false, paired),
  "F jwt, off, whole token set": jwtCase(false, await jwtCookie(tokens)),
}

// Every case must read a session, or the comparison means nothing.
for (const [name, { auth, request }] of Object.entries(cases)) {
  const session = await auth(request)
  if (!session?.user?.email || session.error) throw new Error(`${name}: no session (${JSON.stringify(session)})`)
}
// B's cookies are the handler's own format: its token cookie opens for its session.
const { getAccessToken } = createAuth({ providers: [corp], secret: SECRET, env: { AUTH_URL: `${ORIGIN}/auth` }, providerTokens: providerTokens({ refresh: true }) })
if ((await getAccessToken(cases["B jwt, on"].request, "corp")) !== tokens.access_token) throw new Error("B: the token cookie does not belong to its session")

/** Wall and CPU milliseconds per read over about `ms` of reading. */
async function timed({ auth, request }, ms) {
  let reads = 0
  const start = performance.now()
  const cpu = process.cpuUsage()
  const deadline = start + ms
  while (performance.now() < deadline && reads < MAX_READS) {
    await auth(request)
    reads++
  }
  const used = process.cpuUsage(cpu)
  return { wall: (performance.now() - start) / reads, cpu: (used.user + used.system) / 1000 / reads }
}

for (const entry of Object.values(cases)) await timed(entry, WARMUP_MS)
const perRound = Object.fromEntries(Object.keys(cases).map((name) => [name, []]))
for (let round = 0; round < ROUNDS; round++) {
  for (const [name, entry] of Object.entries(cases)) perRound[name].push(await timed(entry, ROUND_MS))
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
}
const us = (ms) => `${(ms * 1000).toFixed(1)} µs`

const [load] = (await import("node:os")).loadavg()
console.log(`provider-tokens bench: ${ROUNDS} rounds × ${ROUND_MS} ms per case, interleaved; node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? "cpu"}, load average ${load.toFixed(1)}`)
for (const [name, rounds] of Object.entries(perRound)) {
  const line = (kind) => {
    const times = rounds.map((round) => round[kind])
    return `${kind} ${us(median(times))} (${us(Math.min(...times))} – ${us(Math.max(...times))})`
  }
  console.log(`  ${name.padEnd(28)} per read: ${line("cpu")}, ${line("wall")}`)
}
for (const [label, off, on] of [
  ["JWT, switch and cookie (B/A)", "A jwt, off", "B jwt, on"],
  ["JWT, switch logic alone (B/E)", "E jwt, off, B's cookies", "B jwt, on"],
  ["JWT, first design's cookie (F/A)", "A jwt, off", "F jwt, off, whole token set"],
  ["database (D/C)", "C database, off", "D database, on"],
]) {
  for (const kind of ["cpu", "wall"]) {
    const ratios = perRound[on].map((round, index) => round[kind] / perRound[off][index][kind])
    const verdict = median(ratios) < 1.05 ? "within" : "OVER"
    console.log(`  ${label} ${kind}: median ratio ${median(ratios).toFixed(3)} (range ${Math.min(...ratios).toFixed(3)} – ${Math.max(...ratios).toFixed(3)}), ${verdict} the 5% budget`)
  }
}
