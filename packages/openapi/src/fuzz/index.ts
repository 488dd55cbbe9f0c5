/**
 * @palisade/openapi/fuzz — contract fuzzing from the document, through `app.request()`. Needs the
 * optional peers fast-check and ajv; never imported by the root entry.
 */

export { formatFailure, formatLink, formatSkipped, fuzz } from './fuzz'
export type {
  FuzzAuth,
  FuzzFailure,
  FuzzLink,
  FuzzOperation,
  FuzzOptions,
  FuzzReport,
  FuzzRequest,
  FuzzSkipped,
} from './types'
