export { type CorsOptions, cors } from './cors'
