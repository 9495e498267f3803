// Shared pieces for the flow suites: a sign-in driven through a TestBrowser, start to finish.
import { finishSignIn } from "../../src/oauth/finish.js"
import { startSignIn } from "../../src/oauth/start.js"
import type { FlowProvider } from "../../src/oauth/context.js"
import type { OIDCConfig } from "../../src/providers/types.js"
import { TestBrowser } from "../servers/browser.js"

export const APP = "https://app.example.com"
export const SECRET = "latchkey-test-secret-0123456789abcdef"

export function callbackFor(id: string): string {
  return `${APP}/auth/callback/${id}`
}

export interface SignInRun {
  browser: TestBrowser
  authorizationUrl: URL
  checkCookies: string[]
  callback: Request
}

/** Runs the browser part of a sign-in: start, then the provider's redirects up to the callback. */
export async function reachCallback(provider: FlowProvider, id: string, options: { fetch?: typeof fetch; browser?: TestBrowser; params?: Record<string, string> } = {}): Promise<SignInRun> {
  const redirectUri = callbackFor(id)
  const { url, cookies } = await startSignIn(provider, { redirectUri, secret: SECRET, fetch: options.fetch, params: options.params })
  const browser = options.browser ?? new TestBrowser()
  browser.acceptCookies(APP, cookies)
  const { request } = await browser.navigate(url, redirectUri)
  return { browser, authorizationUrl: url, checkCookies: cookies, callback: request }
}

/** A full sign-in. */
export async function signIn(provider: FlowProvider, id: string, options: { fetch?: typeof fetch; browser?: TestBrowser } = {}) {
  const run = await reachCallback(provider, id, options)
  const result = await finishSignIn(provider, run.callback, { redirectUri: callbackFor(id), secret: SECRET, fetch: options.fetch })
  return { ...run, result }
}

/** Settles a promise into its error, failing when it resolves. */
export async function rejection(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  return promise.then(
    () => {
      throw new Error("expected a rejection")
    },
    (error: Record<string, unknown>) => error
  )
}

/** A hand-written OIDC config for the test provider (client `rp`), as the docs tell users to write one. */
export function oidcConfig(issuer: string, overrides: Partial<OIDCConfig> = {}): OIDCConfig {
  return {
    id: "op",
    name: "OP",
    type: "oidc",
    issuer,
    clientId: "rp",
    clientSecret: "rp-secret",
    authorization: { params: { scope: "openid email profile" } },
    ...overrides,
  } as OIDCConfig
}

/**
 * A provider's own token request (`token.request`), as an app writes one: it exchanges the code at
 * the test provider (client `rp`), then hands the tokens to `alter`, which plays the part of whatever
 * the request's transport could do to them.
 */
export function customTokenRequest(alter: (tokens: { id_token: string } & Record<string, unknown>) => Promise<Record<string, unknown>> | Record<string, unknown>) {
  return async ({ params, checks, provider, redirectUri }: { params: URLSearchParams; checks: { code_verifier?: string }; provider: { issuer?: string }; redirectUri: string }) => {
    const body = new URLSearchParams({ grant_type: "authorization_code", code: params.get("code")!, redirect_uri: redirectUri, client_id: "rp", client_secret: "rp-secret" })
    if (checks.code_verifier) body.set("code_verifier", checks.code_verifier)
    const response = await fetch(`${provider.issuer}/token`, { method: "POST", body })
    return { tokens: await alter((await response.json()) as { id_token: string }) }
  }
}
