// One password operation as a fetch handler, for the runtimes driven by requests (edge-runtime,
// workerd): POST { op: "hash" | "verify" | "noop", password, stored } and get back what it gave.
// CONTENDER is replaced at bundle time by the import of one library's hasher, so each bundle holds
// one library only and its memory is its own.
import { hash, verify } from "CONTENDER"

async function handle(request) {
  const { op, password, stored } = await request.json()
  if (op === "noop") return Response.json({ ok: true })
  if (op === "hash") return Response.json({ ok: true, stored: await hash(password) })
  const valid = await verify(password, stored)
  if (valid !== true) throw new Error("the benchmark's verify did not match")
  return Response.json({ ok: true })
}

export default { fetch: handle }
export { handle }
