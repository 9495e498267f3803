/**
 * The one browser script behind the sign-in page's passkey section (and any app page that marks up
 * the same contract): it finds each `[data-latchkey-passkey]` element, shows it when the browser
 * can do WebAuthn, wires its buttons with listeners (no inline handlers, so a strict CSP holds),
 * starts passkey autofill when the element asks for it, and runs each ceremony against the
 * handler: GET `webauthn-options/<provider>`, the browser's prompt through `@simplewebauthn/browser`,
 * then POST `callback/<provider>`, and follows the URL the handler answers with. Bundled, with
 * `@simplewebauthn/browser`, into one file at build time; it talks to the page's own origin only.
 *
 * The contract, on the element: `data-latchkey-passkey="<provider id>"`, `data-base="<basePath URL>"`,
 * optional `data-conditional` (offer passkeys in the autofill of its `autocomplete="… webauthn"`
 * input), optional `data-callback-url`; inside it, buttons with `data-passkey-action="authenticate"`
 * or `"register"`, an optional `name="email"` input (sign-up), an optional `name="csrfToken"` input
 * (else the script asks `<base>/csrf`), and an optional `[data-passkey-status]` element for errors.
 */
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, startRegistration } from "@simplewebauthn/browser"

type Action = "authenticate" | "register"

const MESSAGES: Record<string, string> = {
  NotAllowedError: "The passkey request was cancelled or timed out.",
  InvalidStateError: "This passkey is already registered here.",
  AccountExists: "An account with this email already exists. Sign in, then add a passkey.",
  SignUpDisabled: "Sign in another way first, then add a passkey.",
  InvalidEmail: "Enter a valid email address.",
  UnknownCredential: "This passkey is not registered here.",
  InvalidChallenge: "The passkey request expired. Please try again.",
  MissingCSRF: "Your session has expired. Reload the page and try again.",
}
const DEFAULT_MESSAGE = "The passkey could not be used. Please try again."

class PasskeyFailure extends Error {}

function field(root: Element, name: string): HTMLInputElement | null {
  return root.querySelector<HTMLInputElement>(`input[name="${name}"]`)
}

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const body: unknown = await response.json().catch(() => ({}))
  return typeof body === "object" && body !== null ? (body as Record<string, unknown>) : {}
}

async function csrfToken(root: HTMLElement, base: string): Promise<string> {
  const own = field(root, "csrfToken")?.value
  if (own) return own
  const body = await readJson(await fetch(`${base}/csrf`, { credentials: "same-origin" }))
  if (typeof body.csrfToken !== "string") throw new PasskeyFailure("MissingCSRF")
  return body.csrfToken
}

async function ceremonyOptions(base: string, provider: string, action: Action, email: string | undefined): Promise<Record<string, unknown>> {
  const url = new URL(`${base}/webauthn-options/${encodeURIComponent(provider)}`, location.href)
  url.searchParams.set("action", action)
  if (email) url.searchParams.set("email", email)
  const response = await fetch(url, { credentials: "same-origin", headers: { accept: "application/json" } })
  const body = await readJson(response)
  if (!response.ok || typeof body.options !== "object" || body.options === null) throw new PasskeyFailure(typeof body.error === "string" ? body.error : "Configuration")
  return body.options as Record<string, unknown>
}

async function run(root: HTMLElement, action: Action, autofill = false): Promise<void> {
  const provider = root.dataset.latchkeyPasskey ?? ""
  const base = root.dataset.base ?? "/auth"
  const email = action === "register" ? field(root, "email")?.value.trim() || undefined : undefined
  if (action === "register" && field(root, "email") && !email) throw new PasskeyFailure("InvalidEmail")
  const options = await ceremonyOptions(base, provider, action, email)
  const data =
    action === "register"
      ? await startRegistration({ optionsJSON: options as never })
      : await startAuthentication({ optionsJSON: options as never, useBrowserAutofill: autofill })
  const callbackUrl = root.dataset.callbackUrl ?? field(root, "callbackUrl")?.value ?? undefined
  const response = await fetch(`${base}/callback/${encodeURIComponent(provider)}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ action, data, csrfToken: await csrfToken(root, base), callbackUrl }),
  })
  const body = await readJson(response)
  if (!response.ok || typeof body.url !== "string") throw new PasskeyFailure(typeof body.error === "string" ? body.error : "Configuration")
  root.dispatchEvent(new CustomEvent("latchkey:passkey", { bubbles: true, detail: { action, ok: true, url: body.url } }))
  location.assign(body.url)
}

/**
 * Shows why a ceremony failed. Autofill's own failures (no passkey here, the browser withdrew the
 * suggestion) stay quiet: the user never asked for anything. What the handler refused is shown.
 */
function report(root: HTMLElement, action: Action, error: unknown, autofill = false): void {
  const code = error instanceof PasskeyFailure ? error.message : error instanceof Error ? error.name : "Error"
  // A passkey prompt replaced by another (autofill cancelled by a button) is not a failure.
  if (code === "AbortError") return
  root.dispatchEvent(new CustomEvent("latchkey:passkey", { bubbles: true, detail: { action, ok: false, error: code } }))
  const status = root.querySelector<HTMLElement>("[data-passkey-status]")
  if (!status || (autofill && !(error instanceof PasskeyFailure))) return
  status.textContent = MESSAGES[code] ?? DEFAULT_MESSAGE
  status.hidden = false
}

function wire(root: HTMLElement): void {
  if (!browserSupportsWebAuthn()) return
  root.hidden = false
  for (const button of root.querySelectorAll<HTMLButtonElement>("[data-passkey-action]")) {
    const action: Action = button.dataset.passkeyAction === "register" ? "register" : "authenticate"
    button.addEventListener("click", (event) => {
      event.preventDefault()
      button.disabled = true
      run(root, action)
        .catch((error: unknown) => report(root, action, error))
        .finally(() => (button.disabled = false))
    })
  }
  if (root instanceof HTMLFormElement) root.addEventListener("submit", (event) => event.preventDefault())
  if (root.dataset.conditional !== undefined) {
    void browserSupportsWebAuthnAutofill().then((supported) => {
      if (supported) run(root, "authenticate", true).catch((error: unknown) => report(root, "authenticate", error, true))
    })
  }
}

function start(): void {
  for (const root of document.querySelectorAll<HTMLElement>("[data-latchkey-passkey]")) wire(root)
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start)
else start()
