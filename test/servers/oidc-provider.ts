// A real OpenID Provider (oidc-provider) on 127.0.0.1 for the flow tests. Login and consent are
// automated through its interaction API: the interaction endpoint signs in `accountId` and grants
// whatever the client asked for, as a user clicking through would.
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import Provider, { type ClientMetadata, type Configuration } from "oidc-provider"
import { quietConfiguration } from "./quiet-oidc.js"

export interface TestAccount {
  sub: string
  email?: string
  name?: string
  picture?: string
  /** What the provider says of the address; true by default when there is one. */
  email_verified?: boolean
}

export interface OidcServerOptions {
  clients: ClientMetadata[]
  accounts?: TestAccount[]
  /** Put scope claims in the id_token even when an access token is issued. Default true. */
  claimsInIdToken?: boolean
  /** Extra configuration, merged over the defaults. */
  configuration?: Partial<Configuration>
}

export interface OidcServer {
  issuer: string
  /** The provider's id_token signing key (kid "test-signing-key"), for tests that forge tokens. */
  signingKey: CryptoKey
  provider: Provider
  /** The account the next interaction signs in. */
  signInAs(sub: string): void
  close(): Promise<void>
}

export const DEFAULT_ACCOUNT: TestAccount = { sub: "user-1", email: "ada@example.com", name: "Ada Lovelace", picture: "https://example.com/ada.png" }

export async function startOidcServer(options: OidcServerOptions): Promise<OidcServer> {
  const accounts = new Map((options.accounts ?? [DEFAULT_ACCOUNT]).map((account) => [account.sub, account]))
  let currentAccount = [...accounts.keys()][0]!
  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  const signingKey = { ...(await exportJWK(privateKey)), kid: "test-signing-key", alg: "RS256", use: "sig" }

  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  const configuration: Configuration = {
    clients: options.clients,
    jwks: { keys: [signingKey as never] },
    cookies: { keys: ["latchkey-test-cookie-key"] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "picture"] },
    conformIdTokenClaims: options.claimsInIdToken === false,
    features: { devInteractions: { enabled: false }, revocation: { enabled: true } },
    pkce: { required: () => false },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed("refresh_token"),
    findAccount: async (_ctx, sub) => {
      const account = accounts.get(sub)
      if (!account) return undefined
      return { accountId: sub, claims: async () => ({ ...account, email_verified: account.email ? (account.email_verified ?? true) : undefined }) }
    },
    ...options.configuration,
  }
  const provider = new Provider(issuer, quietConfiguration(configuration))
  const handle = provider.callback()

  server.on("request", async (req, res) => {
    if (!req.url?.startsWith("/interaction/")) return handle(req, res)
    try {
      const details = await provider.interactionDetails(req, res)
      if (details.prompt.name === "login") {
        await provider.interactionFinished(req, res, { login: { accountId: currentAccount } }, { mergeWithLastSubmission: false })
        return
      }
      const grant = details.grantId
        ? (await provider.Grant.find(details.grantId))!
        : new provider.Grant({ accountId: details.session!.accountId, clientId: details.params.client_id as string })
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> }
      if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
      if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
      for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "))
      const grantId = await grant.save()
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true })
    } catch (error) {
      res.statusCode = 500
      res.end(String(error))
    }
  })

  return {
    issuer,
    signingKey: privateKey,
    provider,
    signInAs(sub) {
      currentAccount = sub
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
