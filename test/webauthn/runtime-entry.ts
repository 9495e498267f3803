// The passkey verification path as a fetch handler, for the runtimes driven by requests
// (edge-runtime, workerd): POST the recorded fixtures, get back what each verification gave.
// It imports latchkey/webauthn by package name, so each runtime resolves it through its own
// export conditions, with @simplewebauthn/server bundled the way the runtime's toolchain would.
import { webauthn } from "latchkey/webauthn"

interface Recorded {
  challenge: string
  response: unknown
}

interface Input {
  rp: { id: string; name: string; origins: string[] }
  registrations: Record<string, Recorded>
  assertions: Record<string, Recorded>
}

async function outcome(run: () => Promise<unknown>): Promise<unknown> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    return { ok: false, name: (error as Error).name, reason: (error as { reason?: unknown }).reason }
  }
}

export async function handle(request: Request): Promise<Response> {
  const { rp, registrations, assertions } = (await request.json()) as Input
  const results: Record<string, unknown> = {}
  for (const [who, recorded] of Object.entries(registrations)) {
    results[`register ${who}`] = await outcome(() => webauthn.verifyRegistration({ rp, challenge: recorded.challenge, response: recorded.response, requireUserVerification: true }))
  }
  const ada = await webauthn.verifyRegistration({ rp, challenge: registrations.ada!.challenge, response: registrations.ada!.response, requireUserVerification: true })
  const grace = await webauthn.verifyRegistration({ rp, challenge: registrations.grace!.challenge, response: registrations.grace!.response, requireUserVerification: true })
  const credentials: Record<string, typeof ada> = { ada1: ada, ada2: ada, grace1: grace }
  for (const [which, recorded] of Object.entries(assertions)) {
    const credential = credentials[which]!
    results[`authenticate ${which}`] = await outcome(() =>
      webauthn.verifyAuthentication({ rp, challenge: recorded.challenge, response: recorded.response, credential: { id: credential.id, publicKey: credential.publicKey, counter: 1 }, requireUserVerification: true })
    )
  }
  // Grace's signature under Ada's key: refused on every runtime.
  results["authenticate with another user's key"] = await outcome(() =>
    webauthn.verifyAuthentication({ rp, challenge: assertions.grace1!.challenge, response: { ...(assertions.grace1!.response as object), id: ada.id, rawId: ada.id }, credential: { id: ada.id, publicKey: ada.publicKey, counter: 1 }, requireUserVerification: true })
  )
  results["options"] = await outcome(() => webauthn.authenticationOptions({ rp, challenge: assertions.ada1!.challenge, userVerification: "required", timeout: 1000 }))
  return Response.json(results)
}

export default { fetch: handle }
