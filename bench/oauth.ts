// The sign-in flow against a real oidc-provider on 127.0.0.1, with discovery and JWKS cached:
// startSignIn alone, and finishSignIn (code exchange, id_token validation and signature check,
// profile mapping). The lower bound is the same protocol work with oauth4webapi called directly
// (no checks sealed in cookies, no id_token signature check). Each finishSignIn needs a fresh
// code, so codes are minted before timing and only the callback handling is measured.
import * as oauth from "oauth4webapi"
import { finishSignIn, startSignIn } from "latchkey/oauth"
import { machineWithLoad, median, perRound, ratioText } from "./method.mjs"
import { TestBrowser } from "../test/servers/browser.js"
import { startOidcServer } from "../test/servers/oidc-provider.js"

const SECRET = "latchkey-bench-secret-0123456789abcdef0123"
const redirectUri = "https://app.example.com/auth/callback/bench"
const server = await startOidcServer({
  clients: [{ client_id: "bench", client_secret: "bench-secret", redirect_uris: [redirectUri], token_endpoint_auth_method: "client_secret_basic" }],
})
const provider = {
  id: "bench",
  name: "Bench",
  type: "oidc" as const,
  issuer: server.issuer,
  clientId: "bench",
  clientSecret: "bench-secret",
  authorization: { params: { scope: "openid email profile" } },
}

async function latchkeyCallback(): Promise<Request> {
  const { url, cookies } = await startSignIn(provider, { redirectUri, secret: SECRET })
  const browser = new TestBrowser()
  browser.acceptCookies("https://app.example.com", cookies)
  return (await browser.navigate(url, redirectUri)).request
}

const as = await oauth.processDiscoveryResponse(
  new URL(server.issuer),
  await oauth.discoveryRequest(new URL(server.issuer), { [oauth.allowInsecureRequests]: true })
)
const client: oauth.Client = { client_id: "bench" }
const clientAuth = oauth.ClientSecretBasic("bench-secret")

async function rawCallback(): Promise<{ request: Request; verifier: string }> {
  const verifier = oauth.generateRandomCodeVerifier()
  const url = new URL(as.authorization_endpoint!)
  url.search = new URLSearchParams({
    client_id: "bench",
    redirect_uri: redirectUri,
    response_type: "code",
    scope: "openid email profile",
    code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
  }).toString()
  return { request: (await new TestBrowser().navigate(url, redirectUri)).request, verifier }
}

async function rawFinish({ request, verifier }: { request: Request; verifier: string }) {
  const params = oauth.validateAuthResponse(as, client, new URL(request.url), oauth.skipStateCheck)
  const response = await oauth.authorizationCodeGrantRequest(as, client, clientAuth, params, redirectUri, verifier, { [oauth.allowInsecureRequests]: true })
  const result = await oauth.processAuthorizationCodeResponse(as, client, response)
  return oauth.getValidatedIdTokenClaims(result)
}

// Warm both paths once: discovery and JWKS are cached after this.
await finishSignIn(provider, await latchkeyCallback(), { redirectUri, secret: SECRET })
await rawFinish(await rawCallback())

// oidc-provider's development store keeps about 1000 entries and each sign-in stores ~5, so
// the codes minted for both paths must stay well under that or the oldest are evicted.
// Interleaved as every comparison in bench/ is (bench/method.mjs): per round, PER_ROUND finishes of
// each path back to back, the first path alternating; the ratio is taken within each round.
const ROUNDS = Number(process.env.FLOW_ROUNDS ?? 6)
const PER_ROUND = Number(process.env.FLOW_PER_ROUND ?? 10)
const total = ROUNDS * PER_ROUND
const latchkeyCallbacks: Request[] = []
for (let i = 0; i < total; i++) latchkeyCallbacks.push(await latchkeyCallback())
const rawCallbacks: { request: Request; verifier: string }[] = []
for (let i = 0; i < total; i++) rawCallbacks.push(await rawCallback())

/** Mean µs per call of `count` calls of `fn`, each awaited before the next. */
async function timed(count: number, fn: () => Promise<unknown>): Promise<number> {
  const start = performance.now()
  for (let i = 0; i < count; i++) await fn()
  return ((performance.now() - start) * 1000) / count
}

const times = { start: [] as number[], finish: [] as number[], lower: [] as number[] }
for (let round = 0; round < ROUNDS; round++) {
  const steps = [
    async () => times.finish.push(await timed(PER_ROUND, () => finishSignIn(provider, latchkeyCallbacks.pop()!, { redirectUri, secret: SECRET }))),
    async () => times.lower.push(await timed(PER_ROUND, () => rawFinish(rawCallbacks.pop()!))),
  ]
  if (round % 2 === 1) steps.reverse()
  for (const step of steps) await step()
  times.start.push(await timed(PER_ROUND, () => startSignIn(provider, { redirectUri, secret: SECRET })))
}

const start = median(times.start)
const finish = median(times.finish)
const lower = median(times.lower)
const heading = `sign-in flow against oidc-provider on 127.0.0.1 (discovery and JWKS cached; ${ROUNDS} interleaved rounds of ${PER_ROUND} calls per path)`
console.log(`\n${heading}\nmachine: ${machineWithLoad()}\n`)
console.log("| step | latchkey µs/op | oauth4webapi only µs/op | latchkey / lower bound |")
console.log("|---|---:|---:|---:|")
console.log(`| startSignIn | ${start.toFixed(0)} | – | – |`)
console.log(`| finishSignIn | ${finish.toFixed(0)} | ${lower.toFixed(0)} | ${ratioText(perRound(times.finish, times.lower))} |`)
await server.close()
