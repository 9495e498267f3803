import type { OAuthConfig, OAuthUserConfig } from "./types.js"
import { oauthProvider } from "./core/define.js"

/**
 * The user object of `GET /v2/me` on the 42 API (abridged: cursus, projects and the like are left untyped).
 *
 * @example
 * ```ts
 * import FortyTwoSchool, { type FortyTwoSchoolProfile } from "latchkey/providers/42-school"
 * const provider = FortyTwoSchool({
 *   profile: (profile: FortyTwoSchoolProfile) => ({ id: String(profile.id), name: profile.login, email: profile.email, image: profile.image.versions.small }),
 * })
 * ```
 */
export interface FortyTwoSchoolProfile {
  id: number
  email: string
  login: string
  first_name: string
  last_name: string
  usual_full_name: string
  usual_first_name: string | null
  url: string
  phone: string
  displayname: string
  kind: string
  image: {
    link: string | null
    versions: { large: string | null; medium: string | null; small: string | null; micro: string | null }
  }
  "staff?": boolean
  correction_point: number
  pool_month: string | null
  pool_year: string | null
  location: string | null
  wallet: number
  anonymize_date: string
  data_erasure_date: string | null
  created_at: string
  updated_at: string
  alumnized_at: string | null
  "alumni?": boolean
  "active?": boolean
  [field: string]: unknown
}

/**
 * Sign in with 42 (the 42 network's intranet, OAuth 2.0).
 *
 * Setup: register an application at https://profile.intra.42.fr/oauth/applications/new with the
 * redirect URI `<base>/callback/42-school`; set `AUTH_42_SCHOOL_ID` and `AUTH_42_SCHOOL_SECRET`
 * (the application's UID and secret).
 *
 * The `public` scope covers the profile and its email address. The 42 API documents no PKCE, so
 * `state` guards the callback instead; the client secret goes in the token request body, as the
 * guide shows.
 *
 * Exported from `latchkey/providers/42-school` and `latchkey/providers`.
 * Docs: https://api.intra.42.fr/apidoc/guides/web_application_flow
 *
 * @example
 * ```ts
 * import FortyTwoSchool from "latchkey/providers/42-school"
 * const provider = FortyTwoSchool() // AUTH_42_SCHOOL_ID / AUTH_42_SCHOOL_SECRET
 * ```
 */
export default function FortyTwoSchool(options?: OAuthUserConfig<FortyTwoSchoolProfile>): OAuthConfig<FortyTwoSchoolProfile> {
  return oauthProvider(
    {
      id: "42-school",
      name: "42 School",
      type: "oauth",
      authorization: { url: "https://api.intra.42.fr/oauth/authorize", params: { scope: "public" } },
      token: "https://api.intra.42.fr/oauth/token",
      userinfo: "https://api.intra.42.fr/v2/me",
      checks: ["state"],
      client: { token_endpoint_auth_method: "client_secret_post" },
      capabilities: { refresh: true, revocation: false },
      docs: "https://api.intra.42.fr/apidoc/guides/web_application_flow",
      style: { brandColor: "#000000", mark: () => import("./logos/42-school.js") },
      profile: (profile) => ({
        id: String(profile.id),
        name: profile.usual_full_name ?? profile.displayname ?? profile.login,
        email: profile.email ?? null,
        image: profile.image?.link ?? null,
      }),
    },
    options
  )
}
