/**
 * `latchkey/providers`: who users can sign in with. Each built-in provider is one short file: a
 * declarative record (endpoints or issuer, scopes, checks, client authentication, refresh and
 * revocation support, docs URL, brand colour and named quirks), its typed `<Name>Profile` and its
 * profile mapping. A factory only pairs that record with the user's options; `resolveProviders`
 * (in `core/`) merges, fills from the environment, applies quirks and validates, once for all of
 * them. Import a single provider from `latchkey/providers/<id>` to load only that file.
 *
 * @module
 */
export type * from "./types.js"
export type { OAuthProviderId, BuiltInProviderType } from "./ids.js"
export { resolveProviders, resolveProvider, envName, type ResolveProvidersOptions } from "./core/resolve.js"
export { defaultProfile, defaultAccount } from "./core/defaults.js"

export { default as Apple, type AppleProfile, type AppleFirstSignInUser } from "./apple.js"
export { default as Auth0, type Auth0Profile } from "./auth0.js"
export { default as Discord, type DiscordProfile } from "./discord.js"
export { default as GitHub, type GitHubProfile, type GitHubEmail, type GitHubUserConfig } from "./github.js"
export { default as GitLab, type GitLabProfile } from "./gitlab.js"
export { default as Google, type GoogleProfile } from "./google.js"
export { default as Keycloak, type KeycloakProfile } from "./keycloak.js"
export { default as LinkedIn, type LinkedInProfile } from "./linkedin.js"
export { default as MicrosoftEntraID, type MicrosoftEntraIDProfile, type MicrosoftEntraIDUserConfig } from "./microsoft-entra-id.js"
export { default as Okta, type OktaProfile } from "./okta.js"
export { default as Slack, type SlackProfile } from "./slack.js"
export { default as Twitter, type TwitterProfile } from "./twitter.js"

export { default as Credentials } from "./credentials.js"
export { default as WebAuthn, type RelyingParty, type WebAuthnUserConfig } from "./webauthn.js"
export { default as Passkey } from "./passkey.js"

export { default as Email } from "./email/email.js"
export { default as Nodemailer, type NodemailerUserConfig } from "./email/nodemailer.js"
export { default as Resend } from "./email/resend.js"
export { default as SendGrid } from "./email/sendgrid.js"
export { default as Postmark } from "./email/postmark.js"
export { default as Mailgun, type MailgunUserConfig } from "./email/mailgun.js"
export { default as Loops, type LoopsUserConfig } from "./email/loops.js"
export { default as ForwardEmail } from "./email/forwardemail.js"
export { verificationMessage, type VerificationMessage } from "./email/message.js"
export type { VerificationRequestParams, EmailTheme } from "./email/types.js"
