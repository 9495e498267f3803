import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user of `GET https://api.figma.com/v1/me`.
 *
 * @example
 * ```ts
 * import Figma, { type FigmaProfile } from "latchkey/providers/figma"
 * const provider = Figma({
 *   profile: (profile: FigmaProfile) => ({ id: profile.id, name: profile.handle, email: profile.email, image: profile.img_url || null }),
 * })
 * ```
 */
export interface FigmaProfile {
  id: string
  handle: string
  email: string
  img_url: string
  [field: string]: unknown
}

/**
 * Sign in with Figma (OAuth 2.0).
 *
 * Setup: create an OAuth app at https://www.figma.com/developers/apps with the callback URL
 * `<base>/callback/figma` and the `current_user:read` scope; set `AUTH_FIGMA_ID` and
 * `AUTH_FIGMA_SECRET`.
 *
 * Quirks: Figma refreshes tokens at a separate endpoint (`/v1/oauth/refresh`) that the standard
 * refresh does not call, so refresh is flagged off; `state` is sent along with PKCE.
 *
 * Exported from `latchkey/providers/figma` and `latchkey/providers`.
 * Docs: https://developers.figma.com/docs/rest-api/authentication/
 *
 * @example
 * ```ts
 * import Figma from "latchkey/providers/figma"
 * const provider = Figma({ authorization: { params: { scope: "current_user:read file_content:read" } } })
 * ```
 */
export default function Figma(options?: OAuthUserConfig<FigmaProfile>): OAuthConfig<FigmaProfile> {
  return oauthProvider(
    {
      id: "figma",
      name: "Figma",
      type: "oauth",
      authorization: { url: "https://www.figma.com/oauth", params: { scope: "current_user:read" } },
      token: "https://api.figma.com/v1/oauth/token",
      userinfo: "https://api.figma.com/v1/me",
      checks: ["pkce", "state"],
      capabilities: { refresh: false, revocation: false },
      docs: "https://developers.figma.com/docs/rest-api/authentication/",
      style: { brandColor: "#F24E1E", mark: () => import("./logos/figma.js") },
      profile: (profile) => ({ id: profile.id, name: profile.handle, email: profile.email, image: profile.img_url || null }),
    },
    options
  )
}
