/**
 * The network checks, per OpenID provider: its discovery document answers at the URL the handler
 * will fetch, names the issuer configured (an `issuer` mismatch makes every ID token fail), and
 * the provider's clock agrees with this machine's, read from the response's HTTP `Date` header
 * (a skew past a minute makes fresh ID tokens look expired or not yet valid).
 */
import { envName } from "../../providers/core/resolve.js"
import type { ResolvedOAuthProvider } from "../../providers/types.js"
import type { DoctorContext } from "./context.js"
import type { DoctorReport } from "./report.js"

/** How long a discovery request may take. */
const TIMEOUT_MS = 5_000
/** The skew past which ID token times fail: a minute, twice the usual clock tolerance. */
const MAX_SKEW_SECONDS = 60

/** Where the handler reads the provider's discovery document. */
export function discoveryUrl(provider: ResolvedOAuthProvider): string | undefined {
  if (provider.wellKnown !== undefined) return provider.wellKnown
  if (provider.issuer === undefined) return undefined
  return `${provider.issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`
}

/** Checks discovery, issuer and clock for each provider that has an issuer. */
export async function checkDiscovery(context: DoctorContext, report: DoctorReport, providers: ResolvedOAuthProvider[]): Promise<void> {
  for (const provider of providers) {
    const url = discoveryUrl(provider)
    if (url === undefined) continue
    let response: Response
    try {
      response = await context.fetch(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(TIMEOUT_MS) })
    } catch (failure) {
      const cause = (failure as { cause?: { code?: string; message?: string } }).cause
      const reason = cause?.code ?? cause?.message ?? (failure as Error).message
      report.problem(`Discovery for "${provider.id}" at ${url} failed: ${reason}.`, `check ${envName(provider.id, "ISSUER")} and that this machine can reach the provider.`)
      continue
    }
    checkClock(context, report, provider, response)
    const document = (await response.json().catch(() => undefined)) as { issuer?: unknown } | undefined
    if (!response.ok || typeof document?.issuer !== "string") {
      report.problem(`Discovery for "${provider.id}" at ${url} answered ${response.status} without an issuer.`, `check ${envName(provider.id, "ISSUER")}: it is the URL whose /.well-known/openid-configuration describes the provider.`)
      continue
    }
    const quirky = provider.quirks.tenantIssuer || provider.quirks.instanceIssuer
    if (!quirky && document.issuer !== provider.issuer) {
      report.problem(`Discovery for "${provider.id}" names the issuer ${document.issuer}, but the config says ${provider.issuer}: every ID token would be refused.`, `set ${envName(provider.id, "ISSUER")}=${document.issuer}.`)
    } else {
      report.pass(`Discovery for "${provider.id}" answers at ${url}, with the issuer configured.`)
    }
  }
}

function checkClock(context: DoctorContext, report: DoctorReport, provider: ResolvedOAuthProvider, response: Response): void {
  const date = Date.parse(response.headers.get("date") ?? "")
  if (Number.isNaN(date)) return
  const skew = Math.round((context.now() - date) / 1000)
  if (Math.abs(skew) > MAX_SKEW_SECONDS) {
    const direction = skew > 0 ? "ahead of" : "behind"
    report.problem(`This machine's clock is ${Math.abs(skew)} s ${direction} "${provider.id}"'s: ID tokens will look ${skew > 0 ? "expired" : "not yet valid"}.`, "synchronise the clock (enable NTP: timedatectl set-ntp true, or your OS's time settings).")
  } else {
    report.pass(`Clock within ${MAX_SKEW_SECONDS} s of "${provider.id}"'s (${skew} s).`)
  }
}
