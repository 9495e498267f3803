/**
 * The production build of `development.ts` (see there), selected by the `production` export
 * condition through `#development`: the same functions, doing nothing, so a production bundle
 * carries no development-only text. The app still reads `diagnostics.development` as before; a
 * production build only has no hints to show when it says development.
 */
import type * as Development from "./development.js"

/** No hint: a production build shows error pages without one. */
export const developmentHint: typeof Development.developmentHint = async () => undefined

/** No warning: a production build does not compare a request's origin with `AUTH_URL`'s. */
export const warnOnOriginMismatch: typeof Development.warnOnOriginMismatch = () => {}
