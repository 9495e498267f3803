// The four-colour Slack logo in the colours of Slack's media kit (https://slack.com/media-kit):
// one arm (a rounded bar and a rounded tab) drawn once and turned a quarter at a time about the
// centre, blue, green, yellow, red clockwise from the top left.

const ARM = "M45.2 25.8a12.9 12.9 0 1 1 12.9-12.9v12.9zM12.9 32.3h32.3a12.9 12.9 0 0 1 0 25.8H12.9a12.9 12.9 0 0 1 0-25.8z"
const arm = (fill: string, turn: number) => `<path fill="${fill}" transform="rotate(${turn} 61.4 61.4)" d="${ARM}"/>`

/** The Slack logo as an inline SVG element. */
export default `<svg viewBox="0 0 122.8 122.8" aria-hidden="true" focusable="false">${arm("#36C5F0", 0)}${arm("#2EB67D", 90)}${arm("#ECB22E", 180)}${arm("#E01E5A", 270)}</svg>`
