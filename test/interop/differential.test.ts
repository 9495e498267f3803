// A differential test: the real @auth/core 0.41 and latchkey's createAuth, given the same
// Auth.js-style configuration, answer the same scripted requests, each from its own cookie jar.
// Per step a normalised view is compared (differential-support.ts: status, Location with its query,
// Set-Cookie names and attributes, JSON bodies without random values).
//
// Every difference found is either
//   - DOCUMENTED: written as deliberate in docs/migrating-from-authjs.md. DOCUMENTED_DIFFERENCES
//     quotes the doc and asserts the difference is exactly as documented on both sides, so the test
//     fails if either library changes; or
//   - MATCHED: found once, then fixed in latchkey; each has its own test asserting latchkey answers
//     as @auth/core does, and its step is compared again by the sweep.
// The sweep at the end compares every step after taking out exactly the differences listed in both
// tables, so any new difference fails there.
import { describe, expect, it } from "vitest"
import { bodyOf, clearedCookieExpires, csrfCookieResealed, describeDifferences, isCallbackCookie, isCsrfCookie, isSessionCookie, isSet, replaceAt, sessionCookieLifetime, setNames, type Pair } from "./differences.js"
import type * as Shared from "./differences.js"
import { build, runSide, SCENARIOS, SCRIPTS, type Scenario, type View } from "./differential-support.js"

type StepRef = Shared.StepRef<Scenario>
type Documented = Shared.Documented<Scenario>
type Matched = Shared.Matched<Scenario>

// ---------------------------------------------------------------------------------------------
// Running every script of every scenario once, on both sides.

let memo: Promise<Map<string, { authjs: View[]; latchkey: View[] }>> | undefined
function results() {
  memo ??= (async () => {
    const runs = new Map<string, { authjs: View[]; latchkey: View[] }>()
    for (const [title, { scenario, scripts }] of Object.entries(SCENARIOS)) {
      for (const script of scripts) {
        const steps = SCRIPTS[script]!
        // A fresh pair of apps per script: each side has its own adapter, outbox and jar.
        const authjs = await runSide(scenario, build(scenario), "authjs", steps)
        const latchkey = await runSide(scenario, build(scenario), "latchkey", steps)
        runs.set(`${title}|${script}`, { authjs: authjs.views, latchkey: latchkey.views })
      }
    }
    return runs
  })()
  return memo
}

function scenarioTitle(name: string): string {
  const title = Object.keys(SCENARIOS).find((key) => SCENARIOS[key]!.scenario.name === name)
  if (!title) throw new Error(`no scenario ${name}`)
  return title
}

/** The pair of views at a step, by scenario name, script and step label (the nth with that label). */
async function at(name: string, script: string, label: string, nth = 0): Promise<Pair> {
  const title = scenarioTitle(name)
  const run = (await results()).get(`${title}|${script}`)
  if (!run) throw new Error(`scenario ${name} does not run script ${script}`)
  const indexes = SCRIPTS[script]!.map((step, index) => (step.label === label ? index : -1)).filter((index) => index >= 0)
  const index = indexes[nth]
  if (index === undefined) throw new Error(`no step "${label}" #${nth} in ${script}`)
  return { authjs: run.authjs[index]!, latchkey: run.latchkey[index]! }
}

const ORIGIN = "https://app.example.com"

// ---------------------------------------------------------------------------------------------
// (a) DOCUMENTED differences: quoted from docs/migrating-from-authjs.md, asserted exactly.



export const DOCUMENTED_DIFFERENCES: Documented[] = [
  {
    id: "session-cookie-max-age",
    section: "From Auth.js v5 › What behaves differently › Session cookie lifetime",
    quote: "latchkey's session cookie (and its chunks) carries `Max-Age`, where Auth.js writes `Expires`",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "credentials sign-in, session, sign-out", "POST /callback/credentials (right password)")
      expect(authjs.cookies.filter(isSessionCookie)).toEqual(["set __Secure-authjs.session-token; Path=/; HttpOnly; Secure; SameSite=lax; Expires"])
      expect(latchkey.cookies.filter(isSessionCookie)).toEqual(["set __Secure-authjs.session-token; Path=/; HttpOnly; Secure; SameSite=lax; Max-Age"])
    },
    neutralise: sessionCookieLifetime,
  },
  {
    id: "jwt-resealed-at-update-age",
    section: "From Auth.js v5 › How the APIs map (`session.maxAge`, `session.updateAge`, … row)",
    quote: "Auth.js re-seals a JWT on every `/session` read; latchkey re-seals once the token is `updateAge` old, or at once when the `jwt` callback changed it on that read.",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "credentials sign-in, session, sign-out", "GET /session")
      expect(setNames(authjs)).toEqual(["__Secure-authjs.session-token"])
      expect(setNames(latchkey)).toEqual([])
    },
    neutralise(pair, ref) {
      if (ref.scenario.strategy === "database" || !ref.label.startsWith("GET /session")) return
      if (pair.latchkey.cookies.some(isSessionCookie)) return
      pair.authjs.cookies = pair.authjs.cookies.filter((line) => !(isSet(line) && isSessionCookie(line)))
    },
  },
  {
    id: "jwt-session-user-id-and-image",
    section: "How the APIs map (`session.user.id` paragraph); What behaves differently › JWT sessions always carry `user.image`",
    quote:
      "`session.user.id` is set without a callback: the token's `sub` with JWT sessions […] / `/session` and `auth()` answer `user: { id, name, email, image }` (`id` from `sub`), with `null` for a field the token does not have (Auth.js leaves `image` out when there is no `picture` claim).",
    async check() {
      const credentials = await at("jwt-credentials", "credentials sign-in, session, sign-out", "GET /session")
      expect(bodyOf(credentials.authjs)).toEqual({ user: { name: "Ada", email: "ada@example.com" }, expires: "<date>", role: "admin" })
      expect(bodyOf(credentials.latchkey)).toEqual({ user: { id: "u1", name: "Ada", email: "ada@example.com", image: null }, expires: "<date>", role: "admin" })
      const email = await at("pages-basepath", "email sign-in", "GET /session")
      expect(bodyOf(email.authjs)).toEqual({ user: { email: "grace@example.com" }, expires: "<date>" })
      expect(bodyOf(email.latchkey)).toEqual({ user: { id: "<uuid>", name: null, email: "grace@example.com", image: null }, expires: "<date>" })
    },
    neutralise(pair, ref) {
      if (ref.scenario.strategy === "database") return
      const a = bodyOf(pair.authjs)?.user
      const l = bodyOf(pair.latchkey)?.user
      if (!a || !l || typeof a !== "object" || typeof l !== "object") return
      for (const key of Object.keys(l)) if (!(key in a) && (key === "id" || l[key] === null)) delete l[key]
    },
  },
  {
    id: "database-session-callback-argument",
    section: "From Auth.js v5 › What behaves differently › The session callback's `session` with database sessions",
    quote:
      "Auth.js hands the callback the session row with the user in it (`sessionToken`, `userId`, and `user.emailVerified` and every other column), so a callback that returned `session` as it was, or spread it, sent those to the browser. latchkey hands it `{ user: { id, name, email, image }, expires }` only",
    async check() {
      const { authjs, latchkey } = await at("email-database", "email sign-in", "GET /session")
      expect(bodyOf(authjs)).toEqual({ sessionToken: "<uuid>", userId: "<uuid>", expires: "<date>", user: { id: "<uuid>", email: "grace@example.com", emailVerified: "<date>" }, role: "db-admin" })
      expect(bodyOf(latchkey)).toEqual({ user: { id: "<uuid>", name: null, email: "grace@example.com", image: null }, expires: "<date>", role: "db-admin" })
    },
    neutralise(pair, ref) {
      const body = bodyOf(pair.authjs)
      if (ref.scenario.strategy !== "database" || !body || !("sessionToken" in body)) return
      const { sessionToken: _token, userId: _userId, user, ...rest } = body
      pair.authjs.body = { ...rest, user: { id: user.id, name: user.name ?? null, email: user.email, image: user.image ?? null } }
    },
  },
  {
    id: "csrf-cookie-lives-as-long-as-the-session",
    section: "From Auth.js v5 › What behaves differently › Account linking is narrower, and safer",
    quote: "sessions it signs in carry a `latchkey.browser` claim, a hash of the browser's CSRF token, and the CSRF cookie now lives as long as the session.",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "credentials sign-in, session, sign-out", "POST /callback/credentials (right password)")
      expect(authjs.cookies.filter(isCsrfCookie)).toEqual([])
      expect(latchkey.cookies.filter(isCsrfCookie)).toEqual(["set __Host-authjs.csrf-token; Path=/; HttpOnly; Secure; SameSite=lax; Max-Age"])
      const email = await at("email-database", "email sign-in", "GET mailed link")
      expect(email.latchkey.cookies.filter(isCsrfCookie)).toEqual(["set __Host-authjs.csrf-token; Path=/; HttpOnly; Secure; SameSite=lax; Max-Age"])
    },
    neutralise: csrfCookieResealed,
  },
  {
    id: "callback-url-cookie-name",
    section: "From Auth.js v5 › What behaves differently › Cookies of a sign-in in progress",
    quote: "the callback-url cookie is sealed with the secret and named `latchkey.callback-url` (`__Secure-` over https)",
    async check() {
      const { authjs, latchkey } = await at("email-database", "email sign-in", "POST /signin/email")
      expect(authjs.cookies.filter(isCallbackCookie)).toEqual(["set __Secure-authjs.callback-url; Path=/; HttpOnly; Secure; SameSite=lax"])
      expect(latchkey.cookies.filter(isCallbackCookie)).toEqual(["set __Secure-latchkey.callback-url; Path=/; HttpOnly; Secure; SameSite=lax"])
    },
    neutralise(pair) {
      pair.latchkey.cookies = pair.latchkey.cookies.map((line) => line.replace("latchkey.callback-url", "authjs.callback-url")).sort()
    },
  },
  {
    id: "stricter-redirects",
    section: "From Auth.js v5 › What behaves differently › Stricter redirects",
    quote:
      "latchkey redirects only to relative paths and URLs on the app's own origin, judged on the URL as the parser (and so the browser) reads it […] The `redirect` callback receives a `url` that has already passed this check (otherwise the origin itself, as Auth.js passes it when nothing was asked for) and `baseUrl`, the app's origin.",
    async check() {
      const protocolRelative = await at("jwt-credentials", "callbackUrl variants", "callbackUrl protocol-relative //evil.example")
      expect(protocolRelative.authjs.location).toBe(`${ORIGIN}//evil.example/steal`)
      expect(protocolRelative.latchkey.location).toBe(`${ORIGIN}/`)
      // The app's redirect callback maps a foreign URL to /r/outside and an own one to /r/<path>.
      const foreign = await at("callbacks", "callbackUrl variants", "callbackUrl foreign origin")
      expect(foreign.authjs.location).toBe(`${ORIGIN}/r/outside`)
      expect(foreign.latchkey.location).toBe(`${ORIGIN}/r`)
      const viaCallback = await at("callbacks", "callbackUrl variants", "callbackUrl protocol-relative //evil.example")
      expect(viaCallback.authjs.location).toBe(`${ORIGIN}/r//evil.example/steal`)
      expect(viaCallback.latchkey.location).toBe(`${ORIGIN}/r`)
    },
    neutralise(pair, ref) {
      if (ref.label === "callbackUrl protocol-relative //evil.example" || (ref.label === "callbackUrl foreign origin" && ref.scenario.redirect)) pair.authjs.location = pair.latchkey.location
    },
  },
  {
    id: "head-and-post-to-a-magic-link",
    section: "From Auth.js v5 › What behaves differently › Request limits",
    quote:
      "`HEAD` requests to a callback get `405`, so a link scanner's `HEAD` does not use up a magic link. A magic link is consumed by a `GET` only: a `POST` to an email provider's callback gets `405` (Auth.js consumes the token from the query whatever the method […])",
    async check() {
      const head = await at("email-database", "email sign-in", "HEAD mailed link")
      expect([head.authjs.status, head.authjs.body]).toEqual([400, "Bad request."])
      expect([head.latchkey.status, head.latchkey.body]).toEqual([405, { error: "MethodNotAllowed" }])
      const post = await at("email-database", "email sign-in", "POST mailed link (the link's query, as a form POST)")
      expect([post.authjs.status, post.authjs.location, setNames(post.authjs)]).toEqual([302, `${ORIGIN}/welcome`, ["__Secure-authjs.session-token"]])
      expect([post.latchkey.status, post.latchkey.body, setNames(post.latchkey)]).toEqual([405, { error: "MethodNotAllowed" }, []])
    },
    neutralise(pair, ref) {
      if (ref.label === "HEAD mailed link" || ref.label.startsWith("POST mailed link")) pair.authjs = pair.latchkey
    },
  },
  {
    id: "host-trust-is-explicit",
    section: "From Auth.js v5 › What behaves differently › Host trust is explicit",
    quote:
      "Auth.js trusts the `Host` header on its own when `AUTH_URL`, `AUTH_TRUST_HOST`, `VERCEL` or `CF_PAGES` is set, or when `NODE_ENV` is not `production`. latchkey trusts it only with `trustHost: true` or `AUTH_TRUST_HOST` set to `true` or `1`. […] With neither set, every request to the handler gets `400 Untrusted host`, in development too.",
    async check() {
      const session = await at("untrusted", "host trust", "GET /session")
      expect([session.authjs.status, session.authjs.body]).toEqual([200, null])
      expect([session.latchkey.status, session.latchkey.cookies]).toEqual([400, []])
      const csrf = await at("untrusted", "host trust", "GET /csrf")
      expect(csrf.authjs.status).toBe(200)
      expect(csrf.latchkey.status).toBe(400)
    },
    neutralise(pair, ref) {
      if (ref.scenario.untrusted) pair.authjs = pair.latchkey
    },
  },
  {
    id: "callback-url-remembered",
    section: "From Auth.js v5 › What behaves differently › A request without `callbackUrl` goes to the origin's root",
    quote: "latchkey sets that cookie only while an OAuth or email sign-in is under way, so a destination from one visit",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "a later request without callbackUrl", "POST /signout without callbackUrl")
      expect(authjs.location).toBe(`${ORIGIN}/account`)
      expect(latchkey.location).toBe(`${ORIGIN}/`)
    },
    neutralise(pair, ref) {
      // Auth.js (re)sets its callback-url cookie on nearly every route whenever the value changes; latchkey
      // only when an email/OAuth sign-in starts (every time), and clears it when that sign-in ends.
      const latchkeyLines = new Set(pair.latchkey.cookies.filter(isCallbackCookie))
      const authjsLines = new Set(pair.authjs.cookies.filter(isCallbackCookie))
      pair.authjs.cookies = pair.authjs.cookies.filter((line) => !isCallbackCookie(line) || latchkeyLines.has(line))
      pair.latchkey.cookies = pair.latchkey.cookies.filter((line) => !isCallbackCookie(line) || authjsLines.has(line))
      if (ref.label === "POST /signout without callbackUrl") pair.authjs.location = pair.latchkey.location
    },
  },
  {
    id: "return-redirect-extra-fields",
    section: "From Auth.js v5 › What behaves differently › Redirects returned as JSON",
    quote: "is `200 { url }` as in Auth.js, with `error` and `code` beside it when the URL carries them",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "next-auth/react JSON calls (X-Auth-Return-Redirect: 1)", "signIn('credentials', { redirect: false }) wrong password")
      expect(bodyOf(authjs)).toEqual({ url: `${ORIGIN}/auth/signin?code=invalid_login&error=CredentialsSignin` })
      expect(bodyOf(latchkey)).toEqual({ ...bodyOf(authjs), error: "CredentialsSignin", code: "invalid_login" })
    },
    neutralise(pair) {
      const a = bodyOf(pair.authjs)
      const l = bodyOf(pair.latchkey)
      if (!a || !l || typeof a.url !== "string" || typeof l.url !== "string") return
      for (const key of ["error", "code"]) if (!(key in a)) delete l[key]
    },
  },
  {
    id: "return-redirect-location-header",
    section: "From Auth.js v5 › What behaves differently › Redirects returned as JSON",
    quote: "and no `Location`\n  header (Auth.js keeps one)",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "next-auth/react JSON calls (X-Auth-Return-Redirect: 1)", "signIn('credentials', { redirect: false }) success")
      expect([authjs.status, authjs.location]).toEqual([200, `${ORIGIN}/dashboard`])
      expect([latchkey.status, latchkey.location, bodyOf(latchkey)?.url]).toEqual([200, undefined, `${ORIGIN}/dashboard`])
    },
    neutralise(pair) {
      if (pair.authjs.status === 200 && typeof bodyOf(pair.authjs)?.url === "string" && pair.latchkey.location === undefined) delete pair.authjs.location
    },
  },
  {
    id: "email-sign-in-without-address",
    section: "From Auth.js v5 › What behaves differently › An email sign-in without an address",
    quote: "goes back to the sign-in page with `Verification` (the user's input),\n  where Auth.js shows the error page with `Configuration`",
    async check() {
      const pairs = [await at("email-database", "email sign-in", "POST /signin/email with no address"), await at("pages-basepath", "email sign-in", "POST /signin/email with no address")]
      expect(pairs.map(({ authjs }) => authjs.location)).toEqual([`${ORIGIN}/auth/error?error=Configuration`, `${ORIGIN}/oops?error=Configuration`])
      expect(pairs.map(({ latchkey }) => latchkey.location)).toEqual([`${ORIGIN}/auth/signin?error=Verification`, `${ORIGIN}/login?error=Verification`])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "POST /signin/email with no address"),
  },
  {
    id: "unknown-action",
    section: "From Auth.js v5 › What behaves differently › Routes and methods",
    quote: "An action latchkey does not know (`<basePath>/frobnicate`) gets `404 { \"error\": \"NotFound\" }`,\n  where Auth.js answers `400 Bad request.`",
    async check() {
      const pairs = [await at("jwt-credentials", "unknown provider, unknown action, other methods", "GET /frobnicate"), await at("jwt-credentials", "unknown provider, unknown action, other methods", "POST /frobnicate")]
      expect(pairs.map(({ authjs }) => [authjs.status, authjs.body])).toEqual([
        [400, "Bad request."],
        [400, "Bad request."],
      ])
      expect(pairs.map(({ latchkey }) => [latchkey.status, latchkey.body])).toEqual([
        [404, { error: "NotFound" }],
        [404, { error: "NotFound" }],
      ])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label.endsWith("/frobnicate")),
  },
  {
    id: "head-on-other-routes",
    section: "From Auth.js v5 › What behaves differently › Routes and methods",
    quote: "`HEAD` is answered as a `GET` everywhere but on a callback\n  (Auth.js refuses it)",
    async check() {
      const pairs = [await at("jwt-credentials", "unknown provider, unknown action, other methods", "HEAD /session"), await at("jwt-credentials", "unknown provider, unknown action, other methods", "HEAD /csrf")]
      expect(pairs.map(({ authjs }) => authjs.status)).toEqual([400, 400])
      expect(pairs.map(({ latchkey }) => latchkey.status)).toEqual([200, 200])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "HEAD /session" || ref.label === "HEAD /csrf"),
  },
  {
    id: "other-methods",
    section: "From Auth.js v5 › What behaves differently › Routes and methods",
    quote: "a method other than `GET`, `HEAD` and `POST` gets\n  `405 { \"error\": \"MethodNotAllowed\" }` (Auth.js: 400)",
    async check() {
      const pairs = [await at("jwt-credentials", "unknown provider, unknown action, other methods", "PUT /session"), await at("jwt-credentials", "unknown provider, unknown action, other methods", "PUT /signout")]
      expect(pairs.map(({ authjs }) => [authjs.status, authjs.body])).toEqual([
        [400, "Bad request."],
        [400, "Bad request."],
      ])
      expect(pairs.map(({ latchkey }) => [latchkey.status, latchkey.body])).toEqual([
        [405, { error: "MethodNotAllowed" }],
        [405, { error: "MethodNotAllowed" }],
      ])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label.startsWith("PUT ")),
  },
  {
    id: "credentials-posted-to-signin",
    section: "From Auth.js v5 › What behaves differently › Credentials posted to `signin/credentials` sign in",
    quote: "latchkey takes a credentials form at\n  `POST <basePath>/signin/credentials` as at `/callback/credentials`",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "credentials via /signin/credentials", "POST /signin/credentials")
      expect([authjs.status, authjs.location, setNames(authjs).filter((name) => name.includes("session"))]).toEqual([302, `${ORIGIN}/auth/signin`, []])
      expect([latchkey.status, setNames(latchkey).filter((name) => name.includes("session"))]).toEqual([302, ["__Secure-authjs.session-token"]])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "POST /signin/credentials"),
  },
  {
    id: "cleared-cookie-attributes",
    section: "From Auth.js v5 › What behaves differently › A cleared cookie",
    quote: "carries `Max-Age=0` and an `Expires` in 1970, where Auth.js writes `Max-Age=0` alone",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "credentials sign-in, session, sign-out", "POST /signout with csrfToken")
      expect(authjs.cookies.filter(isSessionCookie)).toEqual(["clear __Secure-authjs.session-token; Path=/; HttpOnly; Secure; SameSite=lax; Max-Age"])
      expect(latchkey.cookies.filter(isSessionCookie)).toEqual(["clear __Secure-authjs.session-token; Path=/; HttpOnly; Secure; SameSite=lax; Max-Age; Expires"])
    },
    neutralise: clearedCookieExpires,
  },
  {
    id: "database-session-cookie-on-read",
    section: "From Auth.js v5 › How the APIs map (`session.maxAge`, `session.updateAge`, … row)",
    quote: "With database sessions, Auth.js re-sends the session cookie on every read; latchkey re-sends it when the session slides.",
    async check() {
      const { authjs, latchkey } = await at("email-database", "email sign-in", "GET /session")
      expect(setNames(authjs)).toEqual(["__Secure-authjs.session-token"])
      expect(setNames(latchkey)).toEqual([])
    },
    neutralise(pair, ref) {
      if (ref.scenario.strategy !== "database" || !ref.label.startsWith("GET /session") || pair.latchkey.cookies.some(isSessionCookie)) return
      pair.authjs.cookies = pair.authjs.cookies.filter((line) => !(isSet(line) && isSessionCookie(line)))
    },
  },
  {
    id: "unknown-provider-post",
    section: "From Auth.js v5 › What behaves differently › Routes and methods",
    quote: "A `POST` to `signin/<id>` for an unknown provider gets `404 { \"error\": \"UnknownProvider\" }`,\n  which `latchkey/client` names",
    async check() {
      const { authjs, latchkey } = await at("jwt-credentials", "unknown provider, unknown action, other methods", "POST /signin/nope")
      expect([authjs.status, authjs.location]).toEqual([302, `${ORIGIN}/auth/error?error=Configuration`])
      expect([latchkey.status, latchkey.body]).toEqual([404, { error: "UnknownProvider" }])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "POST /signin/nope"),
  },
]

// ---------------------------------------------------------------------------------------------
// (b) MATCHED: differences this test found and latchkey fixed; each stays answered as @auth/core answers it.



export const MATCHED_BEHAVIOURS: Matched[] = [
  {
    id: "redirect-callback-default-url",
    title: "with no callbackUrl, the redirect callback is called with url = baseUrl (the origin, no trailing slash), as Auth.js calls it",
    async test() {
      const { scenario } = SCENARIOS[scenarioTitle("callbacks")]!
      const built = build(scenario)
      const steps = SCRIPTS["callbackUrl variants"]!.slice(0, 2)
      expect(steps.map(({ label }) => label)).toEqual(["GET /csrf", "no callbackUrl"])
      for (const side of ["authjs", "latchkey"] as const) await runSide(scenario, built, side, steps)
      // Auth.js calls it more than once per request (for the default and for the destination); the last call is the destination.
      expect(built.redirectCalls.authjs.at(-1)).toEqual({ url: ORIGIN, baseUrl: ORIGIN })
      expect(built.redirectCalls.latchkey.at(-1)).toEqual(built.redirectCalls.authjs.at(-1))
    },
    neutralise(pair, ref) {
      if (ref.label === "no callbackUrl" && ref.scenario.redirect) pair.authjs.location = pair.latchkey.location
    },
  },
  {
    id: "missing-csrf-page",
    title: "a POST with a missing or wrong csrfToken lands on the sign-in page (pages.signIn or <basePath>/signin) with ?error=MissingCSRF, as Auth.js's MissingCSRF (kind signIn) does",
    async test() {
      const steps = [
        await at("jwt-credentials", "credentials failures", "missing csrfToken"),
        await at("jwt-credentials", "credentials failures", "wrong csrfToken"),
        await at("jwt-credentials", "credentials sign-in, session, sign-out", "POST /signout without csrfToken"),
        await at("pages-basepath", "credentials failures", "missing csrfToken"),
        await at("email-database", "email sign-in", "POST /signin/email without csrf"),
      ]
      expect(steps.map(({ authjs }) => authjs.location)).toEqual([
        `${ORIGIN}/auth/signin?error=MissingCSRF`,
        `${ORIGIN}/auth/signin?error=MissingCSRF`,
        `${ORIGIN}/auth/signin?error=MissingCSRF`,
        `${ORIGIN}/login?error=MissingCSRF`,
        `${ORIGIN}/auth/signin?error=MissingCSRF`,
      ])
      expect(steps.map(({ latchkey }) => latchkey.location)).toEqual(steps.map(({ authjs }) => authjs.location))
    },
    neutralise(pair) {
      const a = pair.authjs.location ?? bodyOf(pair.authjs)?.url
      const l = pair.latchkey.location ?? bodyOf(pair.latchkey)?.url
      if (typeof a !== "string" || typeof l !== "string" || !a.endsWith("?error=MissingCSRF") || !l.endsWith("?error=MissingCSRF")) return
      if (pair.latchkey.location) pair.latchkey.location = a
      const body = bodyOf(pair.latchkey)
      if (body && typeof body.url === "string") body.url = a
    },
  },
  {
    id: "error-page-status",
    title: "the built-in error page answers Auth.js's statuses: 500 Configuration, 403 AccessDenied and Verification, 200 for no code",
    async test() {
      const labels = ["GET /error?error=Configuration", "GET /error?error=AccessDenied", "GET /error?error=Verification", "GET /error (no code)"]
      const pairs = await Promise.all(labels.map((label) => at("jwt-credentials", "unauthenticated reads", label)))
      expect(pairs.map(({ authjs }) => authjs.status)).toEqual([500, 403, 403, 200])
      expect(pairs.map(({ latchkey }) => latchkey.status)).toEqual(pairs.map(({ authjs }) => authjs.status))
    },
    neutralise(pair, ref) {
      if (ref.label.startsWith("GET /error") && !ref.scenario.pages?.error) pair.authjs.status = pair.latchkey.status
    },
  },
  {
    id: "error-route-redirects-to-pages-error",
    title: "with pages.error, GET <basePath>/error?error=… redirects to pages.error with the code, as Auth.js does (latchkey renders its own page)",
    async test() {
      const { authjs, latchkey } = await at("pages-basepath", "unauthenticated reads", "GET /error?error=Configuration")
      expect([authjs.status, authjs.location]).toEqual([302, `${ORIGIN}/oops?error=Configuration`])
      expect([latchkey.status, latchkey.location]).toEqual([authjs.status, authjs.location])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label.startsWith("GET /error") && Boolean(ref.scenario.pages?.error)),
  },
  {
    id: "verify-request-route-redirects-to-pages-verify-request",
    title: "with pages.verifyRequest, GET <basePath>/verify-request redirects to it, as Auth.js does (latchkey renders its own page)",
    async test() {
      const { authjs, latchkey } = await at("pages-basepath", "unauthenticated reads", "GET /verify-request")
      expect([authjs.status, authjs.location]).toEqual([302, `${ORIGIN}/check-email`])
      expect([latchkey.status, latchkey.location]).toEqual([authjs.status, authjs.location])
    },
    neutralise(pair, ref) {
      const page = ref.scenario.pages?.verifyRequest
      if (!page) return
      if (ref.label === "GET /verify-request") pair.authjs = pair.latchkey
      // The email POST: Auth.js goes through <basePath>/verify-request, which redirects on to the page with the same query.
      const hop = `${ORIGIN}${ref.scenario.routes}/verify-request?`
      const direct = `${ORIGIN}${page}?`
      if (pair.authjs.location?.startsWith(hop)) pair.authjs.location = pair.authjs.location.replace(hop, direct)
      const body = bodyOf(pair.authjs)
      if (typeof body?.url === "string" && body.url.startsWith(hop)) body.url = body.url.replace(hop, direct)
    },
  },
  {
    id: "custom-sign-in-page-default-callback-url",
    title: "with pages.signIn, GET <basePath>/signin without a callbackUrl passes the default (the origin) on as ?callbackUrl=, as Auth.js does",
    async test() {
      const { authjs, latchkey } = await at("pages-basepath", "unauthenticated reads", "GET /signin (page)")
      expect(authjs.location).toBe(`${ORIGIN}/login?callbackUrl=${ORIGIN}`)
      expect(latchkey.location).toBe(authjs.location)
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "GET /signin (page)" && Boolean(ref.scenario.pages?.signIn)),
  },
  {
    id: "unknown-provider",
    title: "a browser's GET of <basePath>/signin/<unknown id> lands on the error page with ?error=Configuration, as Auth.js sends it",
    async test() {
      const { authjs, latchkey } = await at("jwt-credentials", "unknown provider, unknown action, other methods", "GET /signin/nope")
      expect([authjs.status, authjs.location]).toEqual([302, `${ORIGIN}/auth/error?error=Configuration`])
      expect([latchkey.status, latchkey.location]).toEqual([authjs.status, authjs.location])
    },
    neutralise: replaceAt((ref: StepRef) => ref.label === "GET /signin/nope"),
  },
]

// ---------------------------------------------------------------------------------------------

describeDifferences({
  documented: DOCUMENTED_DIFFERENCES,
  matched: MATCHED_BEHAVIOURS,
  scenarios: SCENARIOS,
  scripts: SCRIPTS,
  minSteps: 100,
  pairAt: async (ref) => {
    const run = (await results()).get(`${ref.scenarioTitle}|${ref.script}`)!
    return { authjs: run.authjs[ref.index]!, latchkey: run.latchkey[ref.index]! }
  },
})
