import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of an Amazon Cognito user pool id_token for the `openid profile email` scopes.
 *
 * @example
 * ```ts
 * import type { CognitoProfile } from "latchkey/providers/cognito"
 * const inGroup = (profile: CognitoProfile, group: string) => profile["cognito:groups"]?.includes(group) ?? false
 * ```
 */
export interface CognitoProfile {
  iss: string
  aud: string
  sub: string
  token_use: "id"
  "cognito:username": string
  "cognito:groups"?: string[]
  email?: string
  email_verified?: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  /** Set for users who signed in through a federated identity provider. */
  identities?: { providerName: string; providerType: string; userId: string }[]
  [claim: string]: unknown
}

/**
 * Sign in with an Amazon Cognito user pool (OpenID Connect), through its managed login.
 *
 * Setup: give the user pool a domain, and create an app client with a client secret, the
 * "Authorization code grant" OAuth flow, the `openid`, `profile` and `email` scopes and the
 * allowed callback URL `<base>/callback/cognito`; set `AUTH_COGNITO_ID`, `AUTH_COGNITO_SECRET`
 * and `AUTH_COGNITO_ISSUER`, the user pool's issuer
 * (`https://cognito-idp.<region>.amazonaws.com/<user-pool-id>`). A trailing slash is trimmed, so
 * it never breaks discovery.
 *
 * `name` is an optional user pool attribute, so the name falls back to `cognito:username`.
 *
 * Exported from `latchkey/providers/cognito` and `latchkey/providers`.
 * Docs: https://docs.aws.amazon.com/cognito/latest/developerguide/federation-endpoints.html
 *
 * @example
 * ```ts
 * import Cognito from "latchkey/providers/cognito"
 * const provider = Cognito({ issuer: "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Ab129faBb" })
 * ```
 */
export default function Cognito(options?: OIDCUserConfig<CognitoProfile>): OIDCConfig<CognitoProfile> {
  return oidcProvider(
    {
      id: "cognito",
      name: "Amazon Cognito",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://docs.aws.amazon.com/cognito/latest/developerguide/federation-endpoints.html",
      style: { brandColor: "#DD344C" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? profile["cognito:username"] ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? null,
      }),
    },
    options
  )
}
