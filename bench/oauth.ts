// The sign-in flow against a real oidc-provider on 127.0.0.1, with discovery and JWKS cached:
// startSignIn alone, and finishSignIn (code exchange, id_token validation and signature check,
// profile mapping). The lower bound is the same protocol work with oauth4webapi called directly
// (no checks sealed in cookies, no id_token signature check). Each finishSignIn needs a fresh
// code, so codes are minted before timing and only the callback handling is measured.
import * as oauth from "oauth4webapi"
import { Bench } from "tinybench"
import { finishSignIn, startSignIn } from "latchkey/oauth"
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
const ROUNDS = Number(process.env.ROUNDS ?? 60)
const latchkeyCallbacks: Request[] = []
// tinybench calls each function once more than `iterations` (to see whether it is async).
for (let i = 0; i < ROUNDS + 5; i++) latchkeyCallbacks.push(await latchkeyCallback())
const rawCallbacks: { request: Request; verifier: string }[] = []
for (let i = 0; i < ROUNDS + 5; i++) rawCallbacks.push(await rawCallback())

const bench = new Bench({ iterations: ROUNDS, time: 0, warmup: false })
bench.add("startSignIn (latchkey)", () => startSignIn(provider, { redirectUri, secret: SECRET }))
bench.add("finishSignIn (latchkey)", () => finishSignIn(provider, latchkeyCallbacks.pop()!, { redirectUri, secret: SECRET }))
bench.add("finish, oauth4webapi only (lower bound)", () => rawFinish(rawCallbacks.pop()!))
await bench.run()

function mean(name: string): number {
  const result = bench.tasks.find((task) => task.name === name)!.result as { error?: unknown; latency?: { mean: number } } | undefined
  if (result?.latency === undefined || result.error !== undefined) throw new Error(`${name} failed`, { cause: result?.error })
  return result.latency.mean * 1000
}
const start = mean("startSignIn (latchkey)")
const finish = mean("finishSignIn (latchkey)")
const lower = mean("finish, oauth4webapi only (lower bound)")
console.log(`\nsign-in flow against oidc-provider on 127.0.0.1 (Node ${process.versions.node}, discovery and JWKS cached)\n`)
console.log("| step | latchkey µs/op | oauth4webapi only µs/op | latchkey / lower bound |")
console.log("|---|---:|---:|---:|")
console.log(`| startSignIn | ${start.toFixed(0)} | – | – |`)
console.log(`| finishSignIn | ${finish.toFixed(0)} | ${lower.toFixed(0)} | ${(finish / lower).toFixed(2)}× |`)
await server.close()
