// The password checks one runtime runs, for the runtime matrix: verify the hashes Node made, make
// this runtime's own hash (which Node then verifies), and say which backend the runtime's export
// conditions chose. It imports latchkey/passwords by package name, so each runtime resolves it
// (and #password-kdf) through its own conditions, as an app's bundler would.
import { hashPassword, passwordBackend, verifyPassword } from "latchkey/passwords"

export interface PasswordRuntimeInput {
  password: string
  /** Stored hashes made on Node, by name. */
  hashes: Record<string, string>
}

export type Outcome = { ok: true; value: unknown } | { ok: false; name: string; code: string | undefined; algorithm?: string }

export interface PasswordRuntimeResult {
  backend: string
  verified: Record<string, Outcome>
  wrongPassword: Record<string, Outcome>
  made: Outcome
}

async function outcome(run: () => Promise<unknown>): Promise<Outcome> {
  try {
    return { ok: true, value: await run() }
  } catch (error) {
    const { name, code, algorithm } = error as { name: string; code?: string; algorithm?: string }
    return { ok: false, name, code, ...(algorithm === undefined ? {} : { algorithm }) }
  }
}

export async function runPasswordChecks(input: PasswordRuntimeInput): Promise<PasswordRuntimeResult> {
  const verified: Record<string, Outcome> = {}
  const wrongPassword: Record<string, Outcome> = {}
  for (const [name, stored] of Object.entries(input.hashes)) {
    verified[name] = await outcome(() => verifyPassword(input.password, stored))
    wrongPassword[name] = await outcome(() => verifyPassword(`${input.password}?`, stored))
  }
  return { backend: await passwordBackend(), verified, wrongPassword, made: await outcome(() => hashPassword(input.password)) }
}

export async function handle(request: Request): Promise<Response> {
  return Response.json(await runPasswordChecks((await request.json()) as PasswordRuntimeInput))
}

export default { fetch: handle }
