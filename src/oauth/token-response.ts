/**
 * Token responses as providers really send them, brought to RFC 6749 §5 before oauth4webapi
 * validates them. Each departure is handled here once, for every provider:
 * - a form-encoded body (GitHub without an Accept header, older Facebook) is read as JSON;
 * - an error body sent with HTTP 200 (GitHub, some Entra ID answers) gets the 400 status §5.2
 *   prescribes, so it is reported as the token error it is;
 * - a `scope` sent as an array (Twitch) is joined into the space-separated string §3.3 defines;
 * - an `id_token` that is not a string (Tumblr sends `false`) is dropped, as no id_token at all;
 * - an access token without `token_type` (Meta's Threads and Instagram APIs omit it) is a Bearer
 *   token, the only type those APIs issue.
 */

const NO_STORE = { "cache-control": "no-store" }

function isJson(response: Response): boolean {
  return (response.headers.get("content-type") ?? "").includes("json")
}

async function formToJson(response: Response): Promise<Response> {
  if (!(response.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded")) return response
  const fields: Record<string, string | number> = Object.fromEntries(new URLSearchParams(await response.text()))
  if (typeof fields.expires_in === "string" && /^\d+$/.test(fields.expires_in)) fields.expires_in = Number(fields.expires_in)
  return Response.json(fields, { status: response.status, headers: NO_STORE })
}

async function conformBody(response: Response): Promise<Response> {
  if (response.status !== 200 || !isJson(response)) return response
  const body = (await response.clone().json().catch(() => undefined)) as Record<string, unknown> | undefined
  if (typeof body !== "object" || body === null) return response
  if (typeof body.error === "string" && body.access_token === undefined) return Response.json(body, { status: 400, headers: NO_STORE })
  const conformed = { ...body }
  if (Array.isArray(body.scope) && body.scope.every((scope) => typeof scope === "string")) conformed.scope = body.scope.join(" ")
  if ("id_token" in body && typeof body.id_token !== "string") delete conformed.id_token
  if (typeof body.access_token === "string" && body.token_type === undefined) conformed.token_type = "bearer"
  const unchanged = conformed.scope === body.scope && "id_token" in conformed === "id_token" in body && conformed.token_type === body.token_type
  if (unchanged) return response
  return Response.json(conformed, { status: 200, headers: NO_STORE })
}

/** The response, conformed to RFC 6749 §5 where a provider departs from it in a known way. */
export async function normalizeTokenResponse(response: Response): Promise<Response> {
  return conformBody(await formToJson(response))
}
