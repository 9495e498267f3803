/**
 * oauth4webapi reports failures with its own classes; latchkey callers switch on latchkey codes.
 * This maps each kind once: an error response at the callback, an error body from the token
 * endpoint, a failed protocol check, a transport failure. Messages keep their meaning, never the
 * tokens. oauth4webapi's error is passed as `cause`, where LatchkeyError keeps only its name, code
 * and message: its own cause holds the callback parameters or the token response.
 */
import * as oauth from "oauth4webapi"
import {
  InvalidCheckError,
  LatchkeyError,
  OAuthCallbackError,
  OAuthProfileError,
  OAuthProtocolError,
  OAuthTokenError,
} from "../errors.js"

/** Where in the flow an error happened, for the message. */
export type FlowStage = "discovery" | "callback" | "token" | "id_token" | "userinfo" | "refresh" | "revocation"

function transportError(providerId: string, error: unknown, stage: FlowStage): OAuthProtocolError | undefined {
  const name = (error as { name?: unknown })?.name
  if (name === "TimeoutError" || name === "AbortError") return new OAuthProtocolError(providerId, `the ${stage} request timed out.`, { cause: error })
  if (error instanceof TypeError) return new OAuthProtocolError(providerId, `the ${stage} request failed.`, { cause: error })
  return undefined
}

/**
 * A latchkey error somewhere in `error`'s cause chain: a bounded read that failed inside
 * oauth4webapi's JSON parsing arrives wrapped, and its own message says more than the wrapper's.
 */
function latchkeyCause(error: unknown): LatchkeyError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof LatchkeyError) return current
  }
  return undefined
}

/** The latchkey error for anything thrown during `stage` of a flow with `providerId`. */
export function translateError(providerId: string, error: unknown, stage: FlowStage): Error {
  const cause = latchkeyCause(error)
  if (cause) return cause
  if (error instanceof oauth.AuthorizationResponseError) {
    const fields = { error: error.error, error_description: error.error_description, error_uri: error.cause.get("error_uri") ?? undefined }
    return new OAuthCallbackError(providerId, fields)
  }
  if (error instanceof oauth.ResponseBodyError) {
    if (stage === "userinfo") return new OAuthProfileError(providerId, `userinfo answered "${error.error}".`, { status: error.status, cause: error })
    return new OAuthTokenError(providerId, { error: error.error, error_description: error.error_description, status: error.status })
  }
  if (error instanceof oauth.WWWAuthenticateChallengeError) {
    if (stage === "userinfo") return new OAuthProfileError(providerId, "userinfo refused the access token.", { status: error.status, cause: error })
    const challenge = error.cause[0]?.parameters.error
    return new OAuthTokenError(providerId, { error: challenge ?? "invalid_client", status: error.status })
  }
  if (error instanceof oauth.OperationProcessingError && (error.cause as { claim?: unknown } | undefined)?.claim === "nonce") {
    return new InvalidCheckError("nonce", "mismatch")
  }
  return transportError(providerId, error, stage) ?? new OAuthProtocolError(providerId, `${stage}: ${(error as Error)?.message ?? "failed"}`, { cause: error })
}
