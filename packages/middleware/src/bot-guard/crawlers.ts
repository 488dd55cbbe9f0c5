import type { BotCategory } from './categories'

/**
 * A crawler whose claim can be checked. A user agent with one of `tokens` (lower case,
 * substring) claims to be it; the claim holds when the client address is in the ranges the user
 * passed for `name`, or when forward-confirmed reverse DNS gives a name under one of `domains`.
 * A crawler without `domains` publishes IP ranges only: without ranges from the user its claim
 * cannot be checked.
 */
export interface Crawler {
  readonly name: string
  readonly category: BotCategory
  readonly tokens: readonly string[]
  /** Domains whose names (the domain itself or below it) the crawler's PTR records use. */
  readonly domains: readonly string[]
}

/**
 * The crawlers botGuard verifies, from each operator's own verification page. Order matters:
 * the first crawler with a token in the user agent is the claim.
 *
 * Google: `googlebot.com` and `google.com` only. Google also lists `googleusercontent.com` for
 * user-triggered fetchers, but that domain also names the addresses of every Google Cloud
 * customer's VM (`….bc.googleusercontent.com`): anyone could pass. Pass Google's published
 * `user-triggered-fetchers` ranges for those.
 */
export const CRAWLERS: readonly Crawler[] = [
  {
    name: 'Googlebot',
    category: 'search-engine',
    tokens: [
      'googlebot',
      'google-inspectiontool',
      'googleother',
      'storebot-google',
      'adsbot-google',
      'mediapartners-google',
      'apis-google',
      'feedfetcher-google',
      'google-safety',
    ],
    domains: ['googlebot.com', 'google.com'],
  },
  {
    name: 'Bingbot',
    category: 'search-engine',
    tokens: ['bingbot', 'adidxbot', 'bingpreview', 'msnbot'],
    domains: ['search.msn.com'],
  },
  {
    name: 'Applebot',
    category: 'search-engine',
    tokens: ['applebot'],
    domains: ['applebot.apple.com'],
  },
  { name: 'DuckDuckBot', category: 'search-engine', tokens: ['duckduckbot'], domains: [] },
  {
    name: 'YandexBot',
    category: 'search-engine',
    tokens: ['yandexbot', 'yandeximages', 'yandexmobilebot', 'yandexaccessibilitybot'],
    domains: ['yandex.ru', 'yandex.net', 'yandex.com'],
  },
  {
    name: 'Baiduspider',
    category: 'search-engine',
    tokens: ['baiduspider'],
    domains: ['baidu.com', 'baidu.jp'],
  },
  {
    name: 'Yahoo! Slurp',
    category: 'search-engine',
    tokens: ['yahoo! slurp'],
    domains: ['crawl.yahoo.net'],
  },
  {
    name: 'PetalBot',
    category: 'search-engine',
    tokens: ['petalbot'],
    domains: ['petalsearch.com'],
  },
  { name: 'SeznamBot', category: 'search-engine', tokens: ['seznambot'], domains: ['seznam.cz'] },
  {
    name: 'Amazonbot',
    category: 'ai-crawler',
    tokens: ['amazonbot'],
    domains: ['crawl.amazonbot.amazon'],
  },
  { name: 'GPTBot', category: 'ai-crawler', tokens: ['gptbot'], domains: [] },
  { name: 'OAI-SearchBot', category: 'ai-crawler', tokens: ['oai-searchbot'], domains: [] },
  { name: 'ChatGPT-User', category: 'ai-crawler', tokens: ['chatgpt-user'], domains: [] },
]

/** The crawler names `ranges` accepts. */
export const CRAWLER_NAMES: readonly string[] = CRAWLERS.map((c) => c.name)

/**
 * Whether a PTR name is `domain` or below it. Trailing dot and case ignored; a name that merely
 * ends in the same letters (`evilgooglebot.com`) or carries the domain further left
 * (`crawl.googlebot.com.example.net`) does not count.
 */
export function underDomains(hostname: string, domains: readonly string[]): boolean {
  let name = hostname.toLowerCase()
  if (name.endsWith('.')) name = name.slice(0, -1)
  return domains.some((d) => name === d || name.endsWith(`.${d}`))
}
