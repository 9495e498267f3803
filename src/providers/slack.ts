import type { OIDCConfig, OIDCUserConfig } from "./types.js"
import { oidcProvider } from "./core/define.js"

/**
 * The claims of a Sign in with Slack id_token.
 *
 * @example
 * ```ts
 * import type { SlackProfile } from "latchkey/providers/slack"
 * const workspace = (profile: SlackProfile) => ({ id: profile["https://slack.com/team_id"], name: profile["https://slack.com/team_name"] })
 * ```
 */
export interface SlackProfile {
  iss: string
  sub: string
  aud: string
  exp: number
  iat: number
  auth_time?: number
  nonce?: string
  at_hash?: string
  email?: string
  email_verified?: boolean
  date_email_verified?: number
  name?: string
  picture?: string
  given_name?: string
  family_name?: string
  locale?: string
  "https://slack.com/user_id": string
  "https://slack.com/team_id": string
  "https://slack.com/team_name"?: string
  "https://slack.com/team_domain"?: string
  [claim: string]: unknown
}

/**
 * Sign in with Slack (OpenID Connect).
 *
 * Setup: create an app at https://api.slack.com/apps, add the redirect URL
 * `<base>/callback/slack` under "OAuth & Permissions" and the `openid`, `email` and `profile` user
 * scopes; set `AUTH_SLACK_ID` and `AUTH_SLACK_SECRET`. Slack requires https redirect URLs, even in
 * development.
 *
 * The profile is mapped by the standard claims (`sub`, `name`, `email`, `picture`).
 *
 * Exported from `latchkey/providers/slack` and `latchkey/providers`.
 * Docs: https://docs.slack.dev/authentication/sign-in-with-slack/
 *
 * @example
 * ```ts
 * import Slack from "latchkey/providers/slack"
 * const provider = Slack({ authorization: { params: { team: "T0123456789" } } })
 * ```
 */
export default function Slack(options?: OIDCUserConfig<SlackProfile>): OIDCConfig<SlackProfile> {
  return oidcProvider(
    {
      id: "slack",
      name: "Slack",
      type: "oidc",
      issuer: "https://slack.com",
      authorization: { params: { scope: "openid profile email" } },
      capabilities: { refresh: false, revocation: false },
      docs: "https://docs.slack.dev/authentication/sign-in-with-slack/",
      style: { brandColor: "#4A154B", mark: () => import("./marks/slack.js") },
    },
    options
  )
}
