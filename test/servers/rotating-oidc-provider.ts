// A real OpenID Provider (oidc-provider) whose signing key can be rotated while it runs, for the
// key-rotation tests. oidc-provider reads its keys once, when it is constructed, so a rotation
// builds a new Provider for the same issuer with the new key first (it signs) and the old one
// still published, as a provider rotating its keys does; one HTTP server routes to the current one.
// oidc-provider's in-memory adapter stores grants, sessions and codes module-wide, so the flows
// in progress survive the switch. Login and consent are automated as in ./oidc-provider.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair, type JWK } from "jose"
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider"
import { quietConfiguration } from "./quiet-oidc.js"
import { DEFAULT_ACCOUNT } from "./oidc-provider.js"

export interface RotatingOidcServer {
  issuer: string
  /** The kid of the key that signs now. */
  currentKid: string
  /** Requests made to the JWKS endpoint so far. */
  jwksRequests(): number
  /** Makes a new key the signing key; the old one stays published. */
  rotate(): Promise<void>
  close(): Promise<void>
}

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" }
}

export async function startRotatingOidcServer(options: { clients: ClientMetadata[]; configuration?: Partial<Configuration> }): Promise<RotatingOidcServer> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const account = DEFAULT_ACCOUNT

  function build(keys: JWK[]): { provider: Provider; handle: ReturnType<Provider["callback"]> } {
    const provider = new Provider(issuer, quietConfiguration({
      clients: options.clients,
      jwks: { keys: keys as never },
      cookies: { keys: ["latchkey-rotation-cookie-key"] },
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
      // Scope claims in the id_token, as ./oidc-provider.ts puts them by default.
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: false } },
      pkce: { required: () => false },
      interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
      findAccount: async (_ctx, sub) => (sub === account.sub ? { accountId: sub, claims: async () => ({ ...account, email_verified: true }) } : undefined),
      ...options.configuration,
    }))
    return { provider, handle: provider.callback() }
  }

  let keys = [await signingKey("key-1")]
  let current = build(keys)
  let jwksRequests = 0

  async function interact(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const { provider } = current
    const details = await provider.interactionDetails(request, response)
    if (details.prompt.name === "login") {
      await provider.interactionFinished(request, response, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false })
      return
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string })
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] }
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
    await provider.interactionFinished(request, response, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true })
  }

  server.on("request", (request, response) => {
    if (request.url === "/jwks") jwksRequests++
    if (!request.url?.startsWith("/interaction/")) return current.handle(request, response)
    interact(request, response).catch((error: unknown) => {
      response.statusCode = 500
      response.end(String(error))
    })
  })

  return {
    issuer,
    get currentKid() {
      return keys[0]!.kid!
    },
    jwksRequests: () => jwksRequests,
    async rotate() {
      keys = [await signingKey(`key-${keys.length + 1}`), ...keys]
      current = build(keys)
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
