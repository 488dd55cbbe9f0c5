/**
 * The category split on top of `isbot`. isbot (and its community-kept pattern list) decides
 * whether a user agent is a bot at all; these short named lists only say which kind of bot it
 * is. Each entry is a lower-case token found in the user agent (a plain substring, no pattern),
 * with the name the handler sees in `c.get('bot').name`. A bot that no list names is
 * `unknown-bot`. Crawlers whose claims are verified (Googlebot, Bingbot, …) are in crawlers.ts;
 * they are looked at first.
 *
 * A test checks that isbot recognises every token here as a bot, so these lists can never turn
 * a browser into a bot: at worst a bot lands in `unknown-bot`.
 */

/** What botGuard calls a request, by its user agent (and, for a crawler's claim, its address). */
export type BotCategory =
  | 'search-engine'
  | 'ai-crawler'
  | 'social-preview'
  | 'monitor'
  | 'library'
  | 'unknown-bot'
  | 'browser'
  | 'spoofed'

export const BOT_CATEGORIES: readonly BotCategory[] = [
  'search-engine',
  'ai-crawler',
  'social-preview',
  'monitor',
  'library',
  'unknown-bot',
  'browser',
  'spoofed',
]

/** One named bot: `token` (lower case) found anywhere in the user agent names it. */
export interface NamedBot {
  readonly token: string
  readonly name: string
}

const named = (entries: Record<string, string>): readonly NamedBot[] =>
  Object.entries(entries).map(([token, name]) => ({ token, name }))

/** Crawlers that fetch pages for AI training, AI search or an assistant acting for a user. */
export const AI_CRAWLERS = named({
  claudebot: 'ClaudeBot',
  'claude-user': 'Claude-User',
  'claude-searchbot': 'Claude-SearchBot',
  'claude-web': 'Claude-Web',
  'anthropic-ai': 'anthropic-ai',
  perplexitybot: 'PerplexityBot',
  'perplexity-user': 'Perplexity-User',
  ccbot: 'CCBot',
  bytespider: 'Bytespider',
  'meta-externalagent': 'meta-externalagent',
  'meta-externalfetcher': 'meta-externalfetcher',
  'cohere-ai': 'cohere-ai',
  'cohere-training-data-crawler': 'cohere-training-data-crawler',
  diffbot: 'Diffbot',
  youbot: 'YouBot',
  ai2bot: 'AI2Bot',
  'mistralai-user': 'MistralAI-User',
  timpibot: 'Timpibot',
  imagesiftbot: 'ImagesiftBot',
  omgili: 'omgili',
})

/** Search engines whose claims are not verified (no documented reverse DNS or IP list). */
export const SEARCH_ENGINES = named({
  sogou: 'Sogou',
  exabot: 'Exabot',
  qwantbot: 'Qwantbot',
  mojeekbot: 'MojeekBot',
  yeti: 'Yeti',
  coccocbot: 'coccocbot',
})

/** Link previews: chat apps and social networks fetching a page to show a card. */
export const SOCIAL_PREVIEWS = named({
  facebookexternalhit: 'facebookexternalhit',
  facebookcatalog: 'facebookcatalog',
  twitterbot: 'Twitterbot',
  linkedinbot: 'LinkedInBot',
  slackbot: 'Slackbot',
  'slack-imgproxy': 'Slack-ImgProxy',
  discordbot: 'Discordbot',
  telegrambot: 'TelegramBot',
  whatsapp: 'WhatsApp',
  pinterestbot: 'Pinterestbot',
  redditbot: 'redditbot',
  skypeuripreview: 'SkypeUriPreview',
  embedly: 'Embedly',
  iframely: 'Iframely',
  vkshare: 'vkShare',
  mastodon: 'Mastodon',
  bluesky: 'Bluesky',
  tumblr: 'Tumblr',
  snapchat: 'Snapchat',
  'google-pagerenderer': 'Google-PageRenderer',
  microsoftpreview: 'MicrosoftPreview',
  viber: 'Viber',
})

/** Uptime and performance monitors. */
export const MONITORS = named({
  uptimerobot: 'UptimeRobot',
  pingdom: 'Pingdom',
  statuscake: 'StatusCake',
  site24x7: 'Site24x7',
  datadogsynthetics: 'Datadog Synthetics',
  newrelicpinger: 'NewRelicPinger',
  betteruptime: 'Better Uptime',
  'better stack': 'Better Stack',
  checkly: 'Checkly',
  freshping: 'Freshping',
  hetrixtools: 'HetrixTools',
  nodeping: 'NodePing',
  'uptime-kuma': 'Uptime Kuma',
  'updown.io': 'updown.io',
  gtmetrix: 'GTmetrix',
  'chrome-lighthouse': 'Lighthouse',
  'elb-healthchecker': 'ELB-HealthChecker',
  googlehc: 'GoogleHC',
  'kube-probe': 'kube-probe',
  'cloudflare-healthchecks': 'Cloudflare-Healthchecks',
})

/** HTTP libraries, command-line clients and scraping frameworks. */
export const LIBRARIES = named({
  'curl/': 'curl',
  'wget/': 'Wget',
  'python-requests': 'python-requests',
  'python-urllib': 'Python-urllib',
  'python-httpx': 'python-httpx',
  aiohttp: 'aiohttp',
  'go-http-client': 'Go-http-client',
  okhttp: 'okhttp',
  'apache-httpclient': 'Apache-HttpClient',
  'java/': 'Java',
  axios: 'axios',
  'node-fetch': 'node-fetch',
  undici: 'undici',
  'got (': 'got',
  'libwww-perl': 'libwww-perl',
  guzzlehttp: 'GuzzleHttp',
  faraday: 'Faraday',
  ruby: 'Ruby',
  postmanruntime: 'PostmanRuntime',
  insomnia: 'Insomnia',
  httpie: 'HTTPie',
  windowspowershell: 'PowerShell',
  scrapy: 'Scrapy',
  'dart:io': 'Dart',
  reqwest: 'reqwest',
  'rest-client': 'rest-client',
  httpclient: 'HttpClient',
})

/** The lists in the order they are tried: the first token found names the bot. */
export const NAMED_BOTS: readonly (readonly [BotCategory, readonly NamedBot[]])[] = [
  ['ai-crawler', AI_CRAWLERS],
  ['search-engine', SEARCH_ENGINES],
  ['social-preview', SOCIAL_PREVIEWS],
  ['monitor', MONITORS],
  ['library', LIBRARIES],
]
