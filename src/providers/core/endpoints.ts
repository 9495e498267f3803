/**
 * Endpoint configuration, normalised. An endpoint may be written as a URL string or as an object;
 * either way its query string is lifted into `params`, so the URL the flow builds has one source
 * of parameters and a user's `?scope=…` is honoured rather than duplicated.
 */
import type { ResolvedEndpoint } from "../types.js"
import { definedParams, isPlainObject } from "./merge.js"

interface EndpointObject {
  url?: string
  params?: Record<string, unknown>
  request?: unknown
  conform?: unknown
}

/** Splits a URL's query into parameters. Leaves relative or invalid URLs for validation to report. */
function splitQuery(url: string): { url: string; params: Record<string, string> } {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return { url, params: {} }
  }
  const params = Object.fromEntries(parsed.searchParams)
  parsed.search = ""
  return { url: parsed.href, params }
}

function asObject(endpoint: unknown): EndpointObject {
  if (typeof endpoint === "string") return { url: endpoint }
  return isPlainObject(endpoint) ? (endpoint as EndpointObject) : {}
}

/**
 * The user's endpoint over the default one: the user's URL replaces the default URL, parameters
 * merge (the user's query string and `params` win), and `request`/`conform` functions replace.
 */
export function mergeEndpoint<Handler>(defaults: unknown, user: unknown): ResolvedEndpoint<Handler> {
  const base = asObject(defaults)
  const over = asObject(user)
  const baseUrl = base.url === undefined ? undefined : splitQuery(base.url)
  const overUrl = over.url === undefined ? undefined : splitQuery(over.url)
  const resolved: ResolvedEndpoint<Handler> = {
    params: {
      ...baseUrl?.params,
      ...definedParams(base.params),
      ...overUrl?.params,
      ...definedParams(over.params),
    },
  }
  const url = overUrl?.url ?? baseUrl?.url
  if (url !== undefined) resolved.url = url
  const request = over.request ?? base.request
  if (request !== undefined) resolved.request = request as Handler
  const conform = over.conform ?? base.conform
  if (conform !== undefined) resolved.conform = conform as ResolvedEndpoint["conform"]
  return resolved
}
