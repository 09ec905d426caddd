import { languages } from '#app/i18n/config.ts'
import { publicPages } from './public-pages.ts'

function escapeXml(value: string): string {
  return value.replace(/[<>&'"]/g, (ch) => `&#${ch.charCodeAt(0)};`)
}

/** Every public page in both languages, each with its alternates. */
export function buildSitemap(appUrl: string): string {
  const urls = publicPages.flatMap((page) =>
    languages.map((lang) => {
      const loc = `${appUrl}/${lang}${page ? `/${page}` : ''}`
      const alternates = languages
        .map((alt) => {
          const href = `${appUrl}/${alt}${page ? `/${page}` : ''}`
          return `    <xhtml:link rel="alternate" hreflang="${alt}" href="${escapeXml(href)}"/>`
        })
        .join('\n')
      return `  <url>\n    <loc>${escapeXml(loc)}</loc>\n${alternates}\n  </url>`
    }),
  )
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">\n${urls.join('\n')}\n</urlset>\n`
}

/** Crawlers may read the public pages, not the API or a teacher's own pages. */
export function robotsTxt(appUrl: string): string {
  return ['User-agent: *', 'Allow: /', 'Disallow: /api/', 'Disallow: /set-language', '', `Sitemap: ${appUrl}/sitemap.xml`, ''].join('\n')
}
