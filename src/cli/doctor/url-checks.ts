/**
 * The URL checks: `AUTH_URL` present (or the host trusted), well formed, on https away from this
 * machine, agreeing with `basePath`, with `useSecureCookies`, and with the URL the developer opens
 * (`--url`): `localhost` and `127.0.0.1` are different sites to a browser, so a cookie set on one
 * is missing on the other and the PKCE check fails with "its cookie is missing".
 */
import { devServerOrigin } from "../app-package.js"
import { authUrlSetting, isLoopback, type DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** Where the checks after this one place the app: its public origin, when known, and its basePath. */
export interface AppLocation {
  origin: string | undefined
  basePath: string
}

/** The AUTH_URL to suggest: the framework's dev server (Vite's 5173, Next's 3000) and the configured basePath. */
function example(context: DoctorContext): string {
  return `AUTH_URL=${devServerOrigin(context.dependencies)}${context.config?.basePath?.replace(/\/+$/, "") || "/auth"}`
}

/** Checks `AUTH_URL`, host trust, https and cookie prefixes, and `--url`; answers where the app lives. */
export function checkUrls(context: DoctorContext, report: DoctorReport): AppLocation {
  const setting = authUrlSetting(context)
  const trustHost = context.config?.trustHost ?? ["true", "1"].includes(context.env.AUTH_TRUST_HOST ?? "")
  const browser = parsed(context.options.url)
  if (setting === undefined) {
    if (trustHost) report.pass("No AUTH_URL: the public origin is read from each request's Host header (the host is trusted).")
    else report.problem('No AUTH_URL, and the host is not trusted: the handler answers every request with "Untrusted host".', `set the app's URL and basePath in .env.local, such as ${example(context)} (or AUTH_TRUST_HOST=true behind a proxy you trust).`)
    return { origin: browser?.origin, basePath: context.config?.basePath ?? "/auth" }
  }
  const url = parsed(setting.value)
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:")) {
    report.problem(`${setting.name} is not an absolute http(s) URL.`, `write it in full, such as ${example(context)}.`)
    return { origin: browser?.origin, basePath: context.config?.basePath ?? "/auth" }
  }
  const basePath = checkBasePath(context, report, setting.name, url)
  checkScheme(context, report, setting.name, url)
  if (trustHost) report.note(`${setting.name} pins the public origin; trustHost is not consulted.`)
  if (browser !== undefined) compareWithBrowser(report, setting.name, url, browser)
  else if (url.hostname === "127.0.0.1") report.note(`Open the app at ${url.origin}, not at http://localhost:${url.port}: the browser treats them as different sites.`)
  return { origin: url.origin, basePath }
}

function parsed(text: string | undefined): URL | undefined {
  if (text === undefined) return undefined
  try {
    return new URL(text)
  } catch {
    return undefined
  }
}

function checkBasePath(context: DoctorContext, report: DoctorReport, name: string, url: URL): string {
  const fromUrl = url.pathname.replace(/\/+$/, "")
  const configured = context.config?.basePath?.replace(/\/+$/, "")
  if (configured !== undefined && fromUrl !== "" && fromUrl !== configured) {
    report.problem(`${name}'s path ${fromUrl} is not the config's basePath ${configured}: callback URLs would not reach the handler.`, `set ${name}=${url.origin}${configured}.`)
  }
  return configured || fromUrl || "/auth"
}

function checkScheme(context: DoctorContext, report: DoctorReport, name: string, url: URL): void {
  if (url.hostname === "0.0.0.0") report.problem(`${name} uses 0.0.0.0, an address to listen on, not one to browse to.`, `use localhost: ${name}=${url.protocol}//localhost:${url.port}${url.pathname}.`)
  const secure = context.config?.useSecureCookies ?? url.protocol === "https:"
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    report.problem(`${name} is plain http on ${url.hostname}: cookies travel unencrypted and providers refuse http callback URLs away from localhost.`, `serve the app over https and set ${name}=https://${url.host}${url.pathname}.`)
  }
  if (url.protocol === "http:" && secure) {
    report.problem(`useSecureCookies is on, but ${name} is http: browsers drop __Secure- and __Host- cookies set over http, so no one stays signed in.`, "remove useSecureCookies (it follows the scheme by default) or serve over https.")
  }
  const names = secure ? "__Secure-authjs.session-token, __Host-authjs.csrf-token, __Secure-latchkey.callback-url" : "authjs.session-token, authjs.csrf-token, latchkey.callback-url"
  report.note(`Cookies over ${url.protocol.slice(0, -1)}: ${names}.`)
}

function compareWithBrowser(report: DoctorReport, name: string, url: URL, browser: URL): void {
  if (browser.origin === url.origin) return report.pass(`--url ${browser.origin} is ${name}'s origin.`)
  const fix = `open ${url.origin} in the browser, or set ${name}=${browser.origin}${url.pathname.replace(/\/+$/, "")}.`
  if (browser.hostname !== url.hostname && isLoopback(browser.hostname) && isLoopback(url.hostname)) {
    report.problem(`You open ${browser.hostname} but ${name} says ${url.hostname}: to a browser they are different sites, so the sign-in cookies set on one are missing on the other.`, fix)
  } else if (browser.protocol !== url.protocol) {
    report.problem(`You open ${browser.protocol.slice(0, -1)} but ${name} is ${url.protocol.slice(0, -1)}: the cookie prefixes and the callback URL follow ${name}.`, fix)
  } else {
    report.problem(`You open ${browser.origin} but ${name} is ${url.origin}: the provider sends the browser back to ${name}'s origin.`, fix)
  }
}
