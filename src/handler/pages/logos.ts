/**
 * Provider marks for the sign-in page, loaded per provider id. Each mark is its own module, so a
 * bundler that splits code ships only the marks of the providers an app configures, and only when
 * the sign-in page is rendered.
 */

import { brandButtonFor } from "./brands.js"

const ID = /^[a-z0-9-]+$/

/**
 * The provider's mark as an inline `<svg>` element, or undefined when it has none: the
 * multi-colour mark its button guidelines ask for (`marks/`), else its monochrome simple-icons
 * mark drawn in `currentColor`.
 */
export async function logoMarkup(id: string): Promise<string | undefined> {
  if (!ID.test(id)) return undefined
  const mark = brandButtonFor(id)?.mark
  try {
    if (mark) return ((await import(`./marks/${mark}.ts`)) as { default: string }).default
    const path = ((await import(`../../providers/logos/${id}.ts`)) as { default: string }).default
    return `<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><path fill="currentColor" d="${path}"/></svg>`
  } catch {
    return undefined
  }
}
