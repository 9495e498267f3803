/**
 * The sign-in page's passkey section: a title and an email field (with a hint that no email is
 * sent, so it does not read as a magic-link form) that offers stored passkeys in its autofill
 * (`autocomplete="username webauthn"`, conditional UI), "Sign in with a passkey", and, when the
 * provider allows sign-up, "Create an account with a passkey". It is rendered `hidden`: the served
 * passkey script shows it once it knows the browser can do WebAuthn, and wires its buttons, so a
 * page without the script (or a browser without WebAuthn) shows only what works.
 */
import { escapeHtml } from "../lib/html.js"
import type { PasskeyProvider } from "./host.js"

/**
 * The section for one passkey provider; `baseUrl` is where the handler answers, `common` the
 * page's hidden fields (CSRF token, callback URL). Rendered here, not by the handler, so an app
 * without passkeys carries none of it.
 */
export function signInSection(provider: PasskeyProvider, baseUrl: string, common: string): string {
  const id = `${escapeHtml(provider.id)}-email`
  const emailField = provider.formFields.email
  const autocomplete = provider.enableConditionalUI ? "username webauthn" : "username"
  const conditional = provider.enableConditionalUI ? " data-conditional" : ""
  const label = escapeHtml(emailField?.label ?? "Email")
  const style = ' style="background:var(--brand);color:var(--brand-text)"'
  const signUp = provider.allowSignUp
    ? `<button type="button" data-passkey-action="register" style="background:transparent;color:var(--text);border-color:var(--border)"><span>Create an account with a passkey</span></button>`
    : ""
  return (
    `<form data-latchkey-passkey="${escapeHtml(provider.id)}" data-base="${escapeHtml(baseUrl)}"${conditional} hidden>${common}` +
    // Under the page's "or", a bare "Email" field reads as a magic-link form: the title and the hint
    // say the field belongs to passkeys and that no email is sent.
    `<p style="margin:0;font-weight:600;color:var(--text);text-align:left">${provider.allowSignUp ? "Sign in or create an account with a passkey" : "Sign in with a passkey"}</p>` +
    `<label for="${id}">${label}</label><input id="${id}" name="email" type="email" autocomplete="${autocomplete}" placeholder="you@example.com" aria-describedby="${id}-hint">` +
    `<p id="${id}-hint" style="margin:0;font-size:.875rem;text-align:left">No email is sent: your device confirms it is you with its passkey.</p>` +
    `<button type="submit" data-passkey-action="authenticate"${style}><span>Sign in with ${provider.name === "Passkey" ? "a passkey" : escapeHtml(provider.name)}</span></button>${signUp}` +
    `<p class="alert" role="alert" data-passkey-status hidden></p></form>`
  )
}
