import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Frontegg hosted-login id_token.
 *
 * @example
 * ```ts
 * import Frontegg, { type FronteggProfile } from "latchkey/providers/frontegg"
 * const provider = Frontegg({
 *   profile: (profile: FronteggProfile) => ({ id: profile.sub, name: profile.name ?? null, email: profile.email ?? null, image: profile.profilePictureUrl ?? null }),
 * })
 * ```
 */
export interface FronteggProfile {
  iss: string
  aud: string
  /** The user's Frontegg id. */
  sub: string
  name?: string
  email?: string
  email_verified?: boolean
  picture?: string
  /** The user's avatar, where Frontegg puts it. */
  profilePictureUrl?: string
  /** The account (tenant) the user signed in to, and all of theirs. */
  tenantId?: string
  tenantIds?: string[]
  roles?: string[]
  permissions?: string[]
  [claim: string]: unknown
}

/**
 * Sign in with Frontegg's hosted login (OpenID Connect).
 *
 * Setup: in the Frontegg portal, enable hosted login for the environment and add
 * `<base>/callback/frontegg` to its allowed redirect URLs; set `AUTH_FRONTEGG_ID` and
 * `AUTH_FRONTEGG_SECRET` to the client credentials the portal shows, and `AUTH_FRONTEGG_ISSUER`
 * to the environment's login URL (`https://<subdomain>.frontegg.com`, or your custom domain). A trailing
 * slash is trimmed, so it never breaks discovery.
 *
 * Frontegg serves its discovery document under `/oauth` (`<issuer>/oauth/.well-known/openid-configuration`),
 * not at the issuer's root, so that is where it is read. Frontegg puts the avatar in
 * `profilePictureUrl`, which is used when `picture` is absent.
 *
 * Exported from `latchkey/providers/frontegg` and `latchkey/providers`.
 * Docs: https://developers.frontegg.com/guides/management/frontegg-idp/via-oidc
 *
 * @example
 * ```ts
 * import Frontegg from "latchkey/providers/frontegg"
 * const provider = Frontegg({ issuer: "https://app-x4gr8g28fxr5.frontegg.com" })
 * ```
 */
export default function Frontegg(options?: OIDCUserConfig<FronteggProfile>): OIDCConfig<FronteggProfile> {
  return oidcProvider(
    {
      id: "frontegg",
      name: "Frontegg",
      type: "oidc",
      authorization: { params: { scope: "openid profile email" } },
      // Frontegg's OIDC guide lists its endpoints under /oauth; the root path is not confirmed:
      // https://developers.frontegg.com/guides/management/frontegg-idp/via-oidc
      wellKnown: "{issuer}/oauth/.well-known/openid-configuration",
      quirks: { instanceIssuer: true },
      capabilities: { refresh: true, revocation: true },
      docs: "https://developers.frontegg.com/guides/management/frontegg-idp/via-oidc",
      style: { brandColor: "#4461F2" },
      profile: (profile) => ({
        id: profile.sub,
        name: profile.name ?? null,
        email: profile.email ?? null,
        image: profile.picture ?? profile.profilePictureUrl ?? null,
      }),
    },
    options
  )
}
