// The runtime matrix's cases: one small module per middleware (or package), run in this order.
// Each default export is `{ name, from, exports, needs?, run({ mod, needs, Hono, t, runtime }) }`;
// `exports` are the names that must exist, `needs` other specifiers the case loads (handed to
// `run` by specifier), `run` builds a Hono app and asserts through `app.request()`.
import apiKey from './api-key.mjs'
import bodyLimit from './body-limit.mjs'
import botGuard from './bot-guard.mjs'
import cjs from './cjs.mjs'
import clientIp from './client-ip.mjs'
import contentTypeGuard from './content-type-guard.mjs'
import cors from './cors.mjs'
import csrf from './csrf.mjs'
import httpSignature from './http-signature.mjs'
import ipGuard from './ip-guard.mjs'
import jwks from './jwks.mjs'
import jwtAuth from './jwt-auth.mjs'
import logger from './logger.mjs'
import openapi from './openapi.mjs'
import otel from './otel.mjs'
import rateLimit from './rate-limit.mjs'
import requestId from './request-id.mjs'
import requestTimeout from './request-timeout.mjs'
import securityHeaders from './security-headers.mjs'
import server from './server.mjs'
import sessions from './sessions.mjs'
import shield from './shield.mjs'
import ssrfGuard from './ssrf-guard.mjs'
import stack from './stack.mjs'
import webhook from './webhook.mjs'
import xssSanitize from './xss-sanitize.mjs'

export const cases = [
  cors,
  securityHeaders,
  requestId,
  logger,
  otel,
  bodyLimit,
  contentTypeGuard,
  requestTimeout,
  jwtAuth,
  jwks,
  httpSignature,
  apiKey,
  sessions,
  webhook,
  csrf,
  rateLimit,
  ipGuard,
  clientIp,
  ssrfGuard,
  botGuard,
  xssSanitize,
  shield,
  openapi,
  server,
  cjs,
  stack,
]
