// The four-square Microsoft logo on its 21×21 grid: 9-unit squares with a 1-unit gap, in the
// colours of the Microsoft identity platform branding guidelines
// (https://learn.microsoft.com/entra/identity-platform/howto-add-branding-in-apps).

/** The Microsoft logo as an inline SVG element. */
export default '<svg viewBox="0 0 21 21" aria-hidden="true" focusable="false">' +
  '<rect x="1" y="1" width="9" height="9" fill="#F25022"/><rect x="11" y="1" width="9" height="9" fill="#7FBA00"/>' +
  '<rect x="1" y="11" width="9" height="9" fill="#00A4EF"/><rect x="11" y="11" width="9" height="9" fill="#FFB900"/>' +
  "</svg>"
