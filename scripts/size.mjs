// npm run size: min+gzip per public entry, bundled for the Web (worker/browser conditions) the way
// an app's code-splitting bundler ships it. "initial" is the entry plus every chunk it imports
// statically; "lazy" is what loads only on demand (a provider's sign-in mark, flows a request may
// need). "whole" is every chunk the entry can reach, dynamic imports included, gzipped as one
// stream: what a server or Worker upload carries and a cold start pays for. "own" is the initial
// load with the runtime dependencies left out, so a budget can be read as latchkey's code plus what
// oauth4webapi and @panva/hkdf cost (cookie is built in). Each entry is compared with @auth/core measured
// the same way, and the script fails when one exceeds its budget (initial, or whole where set).
// An entry marked `production` is bundled with the `production` condition too, as webpack, Vite,
// Parcel and Turbopack bundle for production: development-only code (#development) is left out.
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gzipSync } from "node:zlib"
import { build } from "esbuild"

const KB = 1024
const RUNTIME_DEPENDENCIES = Object.keys(JSON.parse(readFileSync("package.json", "utf8")).dependencies)
/** Budgets in bytes, min+gzip of the initial load. */
const ENTRIES = [
  // The guard moved from 6.9 to 7.3 KB for the hardening of the security work (strict key scan,
  // header allowlist, tossed-cookie detection: +0.5 KB), and to 8.6 KB for the hot path of issue
  // 18 (+1.1 KB: the single-pass session-cookie reader, the counting duplicate-key check, the
  // one-pass token parse, the key cache's last-entry slot) and the error classes other subpaths
  // added to errors.ts. The 4 KB target is not yet met.
  // 8.6 → 8.9 KB: the exact duplicate-key scanner is back for text with escaped keys (Node 24 JSON.parse bug).
  // 8.9 → 9.2 KB: getToken to 0.91 of the raw limit (issue 18: the synchronous decode path, the one-cookie
  // header read, the flat-object key count) measured 9.0 KB.
  { name: "latchkey/jwt (encode, decode, getToken)", code: `export { encode, decode, getToken } from "latchkey/jwt"`, budget: 9.2 * KB, target: 4 * KB, peer: `export { encode, decode, getToken } from "@auth/core/jwt"` },
  // 1 KB until issue 26, then its measure (0.71 KB) plus 2%, rounded up to 0.1 KB like every budget below.
  { name: "latchkey/providers/github", code: `export { default } from "latchkey/providers/github"`, budget: 0.8 * KB, peer: `export { default } from "@auth/core/providers/github"` },
  // Budgeted at what it measured when first reported (27.9 KB), plus 10%.
  // Raised from 30.7 KB on purpose: the security hardening and OIDC conformance (JWKS re-fetch on
  // key rotation, signed userinfo, the alg and iat checks, cause sanitising) took the entry from
  // 28.6 to 30.6 KB, and the full Auth.js adapter interface (method checks, memoryAdapter) to 31.1.
  // Raised from 31.5 to 32.5 KB: provider-token refresh (refresh stores, the Medium expiry quirk) added 0.8 KB.
  // Lowered to 28.5 KB (27.7 measured, plus 3%) when id_token signatures moved from jose to oauth4webapi.
  // Lowered to 28.1 KB (27.3 measured, plus 3%) when the Adapter contract, memoryAdapter and the refresh
  // store left for latchkey/adapters and latchkey/provider-tokens (28.0 KB before).
  { name: "latchkey/oauth", code: `export * from "latchkey/oauth"`, budget: 29.3 * KB }, // a fifth outside review: one look-up of a user by address that refuses a collation's fold (address-match.ts), 29.0 KB, + 1%. // issues 26 and 29: account linking's own interface, discovery errors that name the URL and cause, "did you mean" for provider fields: 28.1 KB, + 2%
  // The Adapter contract, withAdapterMethods and memoryAdapter, apart from the sign-in flow: 1.17 KB
  // (1199 bytes) when first measured; budgeted at 1.2 KB, about 3% over.
  // Raised to 1.6 KB (1.5 measured, + 3%) for the session versions of issue 28 (memorySessionVersions, isRevokedToken).
  { name: "latchkey/adapters", code: `export * from "latchkey/adapters"`, budget: 1.6 * KB },
  // The Redis refresh store: command strings over the app's own client, no Redis library.
  // Raised to 1.8 KB (1.7 measured, + 3%) for redisSessionVersions (issue 28: its local copy, timeout, bump script).
  // Raised to 1.9 KB (1.8 measured, + 3%) for consumeMany (issue 27: an attempt's keys counted by one EVAL, its answer checked).
  { name: "latchkey/redis", code: `export * from "latchkey/redis"`, budget: 1.9 * KB },
  // The browser client (no framework) and the React bindings over it; React itself is the app's
  // (an optional peer), so it stays out of the measure. 3.2 and 3.7 KB when first measured.
  { name: "latchkey/client", code: `export * from "latchkey/client"`, budget: 4.5 * KB }, // a mutation probe (a url that is not a page, javascript: or data:, neither a result nor followed): 4.43 KB, + 1.6%. a sixth outside review (no cross-tab echo, a stale update() dropped, a reset's destination): 4.38 KB, inside it. issue 28: 4.3 KB with signUp, requestPasswordReset, resetPassword, changePassword and changeEmail. 3.7 KB after round three and redirectTo (was 3.1): a 404 from the session route is reported, and a page that lands with a new user tells the other tabs
  { name: "latchkey/react (react excluded)", code: `export * from "latchkey/react"`, budget: 4.9 * KB, external: ["react"] }, // a seventh outside review (onUnauthenticated called once, a replaced client starting from the old one's state): 4.82 KB, + 1.6%. issue 28: 4.7 KB, the client's password calls
  // Passkeys, apart from the root so other apps bundle none of it: latchkey's 5.1 KB (4.2 KB of it the
  // served browser script) and @simplewebauthn/server's 86.6 KB, most of that @peculiar/x509 and the
  // ASN.1 stack its attestation-statement verifiers import statically, whatever format arrives.
  // Budgeted at its first measure (91.7 KB) plus 3%; raised to 102.3 KB plus 3% when the passkey
  // routes moved here out of the root entry (measured alone it now also counts the jwt codec and
  // adapter checks, which a passkey app shares with createAuth).
  // Since @simplewebauthn/server became an optional peer loaded with the first ceremony (issue 26), it is
  // lazy: the initial load is latchkey's own 17.8 KB, budgeted at that plus 2%, and the whole keeps the
  // 105.5 KB budget the initial load had (104.8 KB measured).
  // Issue 26: the sign-in page's passkey section and the passkey providers' start-up checks moved here from
  // the root (0.7 KB off every app's createAuth): 18.8 KB initial, 105.9 KB whole, budgeted at those plus 2%.
  // A fourth outside review: passkey sign-up warned about beside every provider that joins by address, 19.3 KB, + 1%.
  { name: "latchkey/webauthn", code: `export { webauthn } from "latchkey/webauthn"`, budget: 19.5 * KB, wholeBudget: 108.0 * KB },
  // Password hashing and rules (latchkey/passwords), apart from the root so apps without passwords bundle
  // none of it: 4.6 KB (4673 bytes) when first measured for the Web (the WebCrypto backend; the workerd
  // build's run-time node:crypto probe is 4.7 KB), beside 5.6 KB for better-auth/crypto's hashPassword and
  // verifyPassword measured the same way. Budgeted at the first measure plus 3%.
  // Issue 28: the hashing floor was 4.6 KB; the whole feature (routes, tokens, mails, pages, the sign-in form) is 11.6 KB, + 2%.
  { name: "latchkey/passwords", code: `export * from "latchkey/passwords"`, budget: 12.8 * KB }, // a fifth outside review (look-alike addresses answered as unknown): 12.6 KB, + 1%. // a fourth outside review (verify-email checks the form's address, sessions end before a new password, a squatter's ways in voided at a reset, a change-of-address link only in its account's session): 12.3 KB, + 1%. The outside review: a verification link opened elsewhere asks for the password (its page and route), 12.1 KB, + 2%
  // The framework integrations: createAuth under them, plus their own thin layer (next/headers and
  // @sveltejs/kit are the app's, loaded only when an action or auth() runs). First measured at 57.4 and
  // 57.3 KB beside 55.9 KB for createAuth + GitHub: their own layer is 1.5 KB. Budgeted at that plus 3%.
  // Lowered from 59 to 52.2 KB (50.7 measured, plus 3%) when jose left the bundle.
  // Lowered from 52.2 to 45.6 KB (44.3 measured, plus 3%) when provider tokens moved to their own subpath.
  { name: "latchkey/next (Latchkey + GitHub, as proxy.ts bundles it)", code: `export { Latchkey } from "latchkey/next"; export { default as GitHub } from "latchkey/providers/github"`, budget: 60.5 * KB, external: ["next"] }, // an eighth review's fixes: 59.9 KB, + 1%. a fourth outside review's fixes (see createAuth + GitHub): 58.5 KB, + 1%. The passkey move (issue 26): 55.4 KB, + 2%. The password server actions (signUp, reset, change; their JSON answers read): 56.1 KB, + 2%. Issue 28: 55.0 KB (password route wiring, the hash-hiding adapter wrapper, session versions), + 2%; // round three: 46.4 KB (the proxy reads database sessions for real; builds without secrets), + 2%. Issues 26, 27, 29: 52.1 KB, + 2% (see createAuth + GitHub)
  { name: "latchkey/sveltekit (Latchkey + GitHub)", code: `export { Latchkey } from "latchkey/sveltekit"; export { default as GitHub } from "latchkey/providers/github"`, budget: 60.1 * KB, external: ["@sveltejs/kit"] }, // an eighth review's fixes: 59.5 KB, + 1%. a fourth outside review's fixes: 58.0 KB, + 1%. The passkey move (issue 26): 54.7 KB, + 2%. The password form actions: 55.4 KB, + 2%. Issue 28: 54.3 KB, + 2%; issue 26's end: 51.4 KB, + 2%
  // The whole bundle (issue 18): every chunk the app can load. Provider marks are imported only by
  // their own provider now, so of the 76 that shipped with every app (42.9 KB) only GitHub's 0.5 KB
  // remains, and the whole went from 109.8 to 57.1 KB (per-chunk sum 62.9). The target is
  // @auth/core's whole (46.3 KB, printed beside it); budgeted at 57.1 KB plus 3% until it is met.
  // The initial budget was 50 KB; provider-token refresh, the passkey route hook, returned redirects and
  // the cookie-only session read for proxies took it to 54.0 KB. Raised to 55 KB, not met: issue 18 stays open.
  // id_token signatures checked by oauth4webapi instead of jose: 49.2 KB initial, 49.7 KB whole (@auth/core + 3.4 KB).
  // Budgets lowered to those plus 3% (50.7; 51.2) so the gain holds; the 46.3 KB target is still not met.
  // Provider tokens (keeping, refreshing, getAccessToken, federated sign-out) moved out of the root into
  // latchkey/provider-tokens, which an app passes to createAuth as passkeys pass webauthn: 42.8 KB initial,
  // 43.3 KB whole, under @auth/core's 46.3. Budgets lowered to those plus 3% (44.1; 44.6).
  // Round three's defences (the confirmed-session read for writes, browser-bound reads with their memo, JSON
  // depth bound, Auth.js-format link tokens): 44.4 KB initial, 44.9 KB whole, still under @auth/core's 46.3.
  // Budgets set to those plus 2% (45.3; 45.8), under the peer's whole.
  // Raised, not met: the architecture step (the session store, +0.3 KB), rate limits on by default in
  // production (the limiter, memory store, client-IP trust and the route gate, about 2.6 KB) and the
  // development diagnostics (typo hints, secret strength, driver codes, the Node-request check, about
  // 2.2 KB initial, the rest lazy) took it to 49.8 KB initial and 52.6 KB whole: @auth/core + 6.2 KB.
  // Budgets set to those plus 2% (50.8; 53.7) so nothing grows unnoticed.
  // Issue 26's size pass measured the leads. The development-only hints (the error page's hint, the
  // origin-mismatch warning) now come through `#development`, which a production build resolves to
  // stubs: 0.6 KB off the whole, the next row. The rest of the "diagnostics" is production behaviour
  // (the driver-code table that keeps a driver's message out of the log, typed errors' "did you mean",
  // the untrusted-host fix in the log, the secret checks, the unknown-option and secret-mismatch
  // warnings) and stays. Loading the limiter and its gate on the first limited request made both worse
  // (initial 49.8 to 50.0 KB, whole 52.5 to 53.5 KB: their imports are shared, so the main chunk split in
  // shared chunks that compress apart); loading the sign-in page with the first page took the initial
  // load to 48.7 KB but the whole to 52.7 KB (59.8 KB with provider tokens): neither was kept. 49.8 KB initial, 52.5 KB whole: budgets at
  // those plus 2% (50.8; 53.6). Under the peer's 46.3 KB whole is still open: 6.2 KB to go.
  // Issue 28: 52.8 KB initial, 55.5 KB whole (the password routes' wiring in the handler, about 1.1 KB: their
  // recognition, host and the hash-hiding wrapper; JWT session versions, about 0.9 KB; the pages and the rest of the
  // feature stay in latchkey/passwords): budgets at those plus 2%. Still over @auth/core's whole (issue 26).
  // Issue 26 again: the passkey section and checks left for latchkey/webauthn, 52.6 KB initial and 55.3 KB
  // whole (@auth/core + 9.0 KB); budgets lowered to those plus 2% so the gain holds.
  // The outside review's fixes, 53.8 KB initial and 56.6 KB whole (@auth/core + 10.3 KB), budgets at those plus 2%:
  // an Auth.js session moved to a bound token keeps answering for a minute (requests in flight), about 0.6 KB;
  // unknown keys inside pages, session, callbacks, events and jwt warned about, about 0.4 KB; the limiter
  // counting the account as its provider spells it, about 0.15 KB; the rest under 0.1 KB each.
  // A third outside review's fixes: 54.3 KB initial, 57.0 KB whole (@auth/core + 10.7 KB), inside the budgets above.
  // Raised, not met: a fourth outside review's fixes, 55.6 KB initial, 58.3 KB whole (@auth/core + 12.0 KB): the
  // cookies option checked key by key (about 0.4 KB), the memory store forgetting what is least at stake in O(1)
  // (about 0.35 KB), unlinkAccount removing a passkey with its account (about 0.3 KB), the rest (the change of
  // address's send limit, the jwt callback's changes kept on a read, credentials shown to signIn) under 0.1 KB
  // each. Budgets at those plus 1% (56.1; 58.9).
  // Raised, not met: a fifth outside review's fixes, 56.3 KB initial, 59.0 KB whole (@auth/core + 12.7 KB): the
  // look-up of a user by address that refuses a collation's fold (about 0.4 KB, with its error and warning), the
  // captcha counted before the account's key, the database session's slide keeping its binding and update()'s
  // data, the numeric sub's revocation key, the chunked cache copy, the updateAge check (under 0.1 KB each).
  // Budgets at those plus 1% (56.9; 59.6); next, sveltekit and the production and providerTokens rows likewise.
  // Raised, not met: an eighth review's fixes, 57.0 KB initial, 59.8 KB whole (@auth/core + 13.4 KB): Auth.js's
  // error, verify-request and sign-in page redirects and statuses (found by a differential test against
  // @auth/core), a verification row checked against its token, a warning for checks ["none"] and for theme
  // colours the pages cannot use (about 0.1 KB each). Budgets at those plus 1% (57.6; 60.4); the rows below likewise.
  { name: "createAuth + GitHub", code: `export { createAuth } from "latchkey"; export { default as GitHub } from "latchkey/providers/github"`, budget: 57.6 * KB, wholeBudget: 60.4 * KB, peer: `export { Auth } from "@auth/core"; export { default as GitHub } from "@auth/core/providers/github"` },
  // The same app as a production build makes it: the bundler sets the `production` condition (webpack,
  // Vite, Parcel and Turbopack do; esbuild and wrangler only when told), so `#development` is the stubs
  // (handler/production.ts). 49.7 KB initial, 52.0 KB whole (@auth/core + 5.7 KB) when first measured;
  // budgeted at those plus 2%. The peer is measured with the same conditions. Lowered with the passkey move
  // (issue 26): 52.5 KB initial, 54.8 KB whole, plus 2%. The outside review's fixes (see above): 53.7; 56.0 KB, + 2%.
  // A fourth outside review's fixes (see above): 55.4; 57.7 KB, + 1%.
  { name: "createAuth + GitHub, production build", production: true, code: `export { createAuth } from "latchkey"; export { default as GitHub } from "latchkey/providers/github"`, budget: 57.5 * KB, wholeBudget: 59.8 * KB, peer: `export { Auth } from "@auth/core"; export { default as GitHub } from "@auth/core/providers/github"` },
  // The same app keeping provider tokens (issue 15's features): 50.4 KB initial, 50.0 KB whole when first
  // measured (the whole is one gzip stream, so less than initial + lazy); budgeted at those plus 3%.
  { name: "createAuth + GitHub + providerTokens", code: `export { createAuth } from "latchkey"; export { default as GitHub } from "latchkey/providers/github"; export { providerTokens } from "latchkey/provider-tokens"`, budget: 66.7 * KB, wholeBudget: 67.9 * KB }, // an eighth review's fixes: 66.1; 67.2 KB, + 1%. a fourth outside review's fixes: 64.3; 65.4 KB, + 1%. The outside review's fixes: 62.5; 63.7 KB, + 2%. the passkey move: 61.3; 62.4 KB, + 2%. Round three: 52.1; 51.7 KB, + 2%. Issues 26, 27, 29: 58.4; 59.5 KB, + 2%
]

async function measure(code, external = [], production = false) {
  const outdir = mkdtempSync(join(tmpdir(), "latchkey-size-"))
  try {
    const { metafile } = await build({
      stdin: { contents: code, resolveDir: process.cwd(), sourcefile: "entry.js" },
      bundle: true,
      splitting: true,
      minify: true,
      format: "esm",
      platform: "neutral",
      conditions: production ? ["worker", "browser", "production"] : ["worker", "browser"],
      mainFields: ["module", "main"],
      // The project tsconfig maps #crypto-backend for typechecking; an app's bundler never sees it.
      tsconfig: "test/runtime/tsconfig.bundle.json",
      outdir,
      metafile: true,
      external,
      logLevel: "error",
    })
    const gz = (file) => gzipSync(readFileSync(file), { level: 9 }).length
    // Dynamic-import targets are entry points too; the measured one is the stdin entry.
    const entry = Object.keys(metafile.outputs).find((file) => metafile.outputs[file].entryPoint === "entry.js")
    const initial = new Set()
    const visit = (file) => {
      if (initial.has(file)) return
      initial.add(file)
      for (const imported of metafile.outputs[file].imports) if (imported.kind === "import-statement" && !imported.external) visit(imported.path)
    }
    visit(entry)
    const all = Object.keys(metafile.outputs).filter((file) => file.endsWith(".js"))
    const sum = (files) => files.reduce((total, file) => total + gz(file), 0)
    const whole = gzipSync(Buffer.concat(all.map((file) => readFileSync(file))), { level: 9 }).length
    return { initial: sum([...initial]), lazy: sum(all.filter((file) => !initial.has(file))), whole }
  } finally {
    rmSync(outdir, { recursive: true, force: true })
  }
}

const kb = (bytes) => `${(bytes / KB).toFixed(1)} KB`
let failed = false
console.log("| entry | latchkey (initial) | own code + dependencies | lazy | whole (every chunk) | budget (initial; whole) | @auth/core (initial; whole) |")
console.log("|---|---:|---:|---:|---:|---:|---:|")
for (const entry of ENTRIES) {
  const ours = await measure(entry.code, entry.external, entry.production)
  const own = (await measure(entry.code, [...RUNTIME_DEPENDENCIES, ...(entry.external ?? [])], entry.production)).initial
  const theirs = entry.peer ? await measure(entry.peer, [], entry.production) : undefined
  const peer = theirs ? `${kb(theirs.initial)}; ${kb(theirs.whole)}` : "–"
  const over = ours.initial > entry.budget
  const wholeOver = entry.wholeBudget !== undefined && ours.whole > entry.wholeBudget
  failed ||= over || wholeOver
  const target = entry.target ? ` (target ${kb(entry.target)})` : ""
  const split = `${kb(own)} + ${kb(ours.initial - own)}`
  const wholeBudget = entry.wholeBudget === undefined ? "" : `; ${kb(entry.wholeBudget)}`
  // Issue 18's target for an app's whole bundle: no more than @auth/core's.
  const versusPeer = theirs && entry.wholeBudget !== undefined ? (ours.whole <= theirs.whole ? " (≤ @auth/core)" : ` (@auth/core + ${kb(ours.whole - theirs.whole)})`) : ""
  console.log(
    `| ${entry.name} | ${kb(ours.initial)}${over ? " OVER" : ""} | ${split} | ${ours.lazy ? kb(ours.lazy) : "–"} | ${kb(ours.whole)}${wholeOver ? " OVER" : ""}${versusPeer} | ${kb(entry.budget)}${wholeBudget}${target} | ${peer} |`
  )
}
if (failed) {
  console.error("\nsize: an entry is over its budget")
  process.exit(1)
}
