// The conformance suite as a fetch handler, for runtimes driven by requests (edge-runtime, workerd):
// POST the ConformanceInput as JSON, get the ConformanceResult back.
import { runConformance, type ConformanceInput } from "./conformance.js"

export async function handle(request: Request): Promise<Response> {
  const input = (await request.json()) as ConformanceInput
  return Response.json(await runConformance(input))
}

export default { fetch: handle }
