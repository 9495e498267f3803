/**
 * The texts of the mails the password routes send: short, plain, with the link on its own line.
 * An app that wants its own words writes them in `sendEmail` from the mail's `kind`.
 */
import type { PasswordEmail } from "../providers/password.js"

const escape = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`)

function withLink(to: string, kind: PasswordEmail["kind"], subject: string, lead: string, url: string, after: string): PasswordEmail {
  const text = `${lead}\n\n${url}\n\n${after}\n`
  const html = `<p>${escape(lead)}</p><p><a href="${escape(url)}">${escape(subject)}</a></p><p>${escape(after)}</p>`
  return { to, kind, subject, text, html, url }
}

function notice(to: string, kind: PasswordEmail["kind"], subject: string, body: string): PasswordEmail {
  return { to, kind, subject, text: `${body}\n`, html: `<p>${escape(body)}</p>` }
}

const IGNORE = "If you did not ask for this, ignore this email."

/** The mail each event sends; `site` is the app's host name. */
export const mails = {
  verifyEmail: (to: string, url: string, site: string) => withLink(to, "verify-email", `Verify your email for ${site}`, "Open this link to verify your email address and finish signing up:", url, IGNORE),
  reset: (to: string, url: string, site: string) => withLink(to, "reset", `Reset your password for ${site}`, "Open this link to choose a new password:", url, `${IGNORE} Your password stays as it is.`),
  changeEmail: (to: string, url: string, site: string) => withLink(to, "change-email", `Confirm your new email for ${site}`, "Open this link to make this your account's email address:", url, IGNORE),
  emailChangedNotice: (to: string, newEmail: string, site: string) =>
    notice(to, "email-changed-notice", `Your email for ${site} is being changed`, `Someone signed in to your account asked to change its email address to ${newEmail}. If it was not you, reset your password now.`),
  signUpNotice: (to: string, site: string) =>
    notice(to, "sign-up-notice", `Someone tried to sign up for ${site} with your email`, "Someone tried to create an account with this email address, which already has one. If it was you, sign in, or reset your password if you forgot it. Otherwise ignore this email."),
}
