// The LinkedIn "in" bug for a blue button: a white rounded square with the letters in LinkedIn
// blue #0A66C2 (https://brand.linkedin.com/downloads). simple-icons carries no LinkedIn mark.

/** The LinkedIn bug as an inline SVG element. */
export default '<svg viewBox="0 0 24 24" aria-hidden="true" focusable="false"><rect width="24" height="24" rx="3" fill="#FFFFFF"/>' +
  '<g fill="#0A66C2"><circle cx="5.4" cy="5.4" r="2.1"/><rect x="3.6" y="9" width="3.6" height="11.4"/>' +
  '<path d="M9.4 9h3.4v1.6c.5-.9 1.7-1.9 3.5-1.9 3.6 0 4.3 2.4 4.3 5.5v6.2h-3.6v-5.5c0-1.3 0-3-1.8-3s-2.1 1.4-2.1 2.9v5.6H9.4z"/></g></svg>'
