/** What `checkSite` found in a built site. */
export interface SiteCheck {
  /** HTML pages read. */
  pages: number
  /** Internal links and asset references checked. */
  checked: number
  /** One line per dead link: `page: url → reason`. */
  problems: string[]
}
/** Checks every internal link, anchor and asset reference of the built site in `dist`. */
export function checkSite(dist: string): SiteCheck
export function htmlFiles(dir: string): string[]
export function idsOf(html: string): Set<string>
export function linksOf(html: string): string[]
