/** The public pages, by path under `/:lang` ('' is the home page). Sitemap and tests read this list. */
export const publicPages = ['', 'packages', 'about-us', 'common-questions', 'contact-us', 'privacy-policy', 'terms'] as const
