/**
 * The verification email every built-in email provider sends: a subject, a plain-text body, and an
 * accessible HTML body with one button. Written once; providers differ only in how they deliver it.
 */
import { escapeHtml } from "../../lib/html.js"
import type { VerificationRequestParams } from "./types.js"

export { escapeHtml }

/**
 * The subject, text and HTML of a sign-in email.
 *
 * @example
 * ```ts
 * import type { VerificationMessage } from "latchkey/providers"
 * const toMailApi = (to: string, message: VerificationMessage) => ({ to, subject: message.subject, text: message.text, html: message.html })
 * ```
 */
export interface VerificationMessage {
  subject: string
  text: string
  html: string
}

/**
 * Builds the sign-in email for `params`.
 *
 * @example
 * ```ts
 * import { verificationMessage } from "latchkey/providers"
 * const { subject, text, html } = verificationMessage({ url: "https://app.example.com/auth/callback/email?token=abc", theme: {} })
 * subject // "Sign in to app.example.com"
 * ```
 */
export function verificationMessage(params: Pick<VerificationRequestParams, "url" | "theme">): VerificationMessage {
  const host = new URL(params.url).host
  const brand = params.theme.brandColor ?? "#346df1"
  const buttonText = params.theme.buttonText ?? "#ffffff"
  const safeHost = escapeHtml(host)
  const html = `<!doctype html><html lang="en"><body style="margin:0;padding:24px;background:#f4f4f5;font-family:system-ui,sans-serif">
<table role="presentation" width="100%" style="max-width:480px;margin:0 auto;background:#ffffff;border-radius:8px;padding:32px">
<tr><td style="font-size:20px;color:#18181b;text-align:center">Sign in to <strong>${safeHost}</strong></td></tr>
<tr><td style="padding:24px 0;text-align:center"><a href="${escapeHtml(params.url)}" style="display:inline-block;padding:12px 24px;border-radius:6px;background:${escapeHtml(brand)};color:${escapeHtml(buttonText)};text-decoration:none;font-weight:600">Sign in</a></td></tr>
<tr><td style="font-size:14px;color:#52525b;text-align:center">If you did not ask for this email, you can ignore it.</td></tr>
</table></body></html>`
  return {
    subject: `Sign in to ${host}`,
    text: `Sign in to ${host}\n${params.url}\n\nIf you did not ask for this email, you can ignore it.\n`,
    html,
  }
}
