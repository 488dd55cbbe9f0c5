export { type BodyLimitOptions, bodyLimit } from './body-limit'
