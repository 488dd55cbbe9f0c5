import { ACCEPT_ENCODING_SCHEMA } from '@palisade/shared/content-coding'
import type { DescribedHeader, MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { ANSWERS, type ShieldSetup } from './answers'

/** On the 415 for a content coding shield does not decode: the codings it does (RFC 9110 §12.5.3). */
const ACCEPT_ENCODING: DescribedHeader = {
  name: 'Accept-Encoding',
  description: 'The content codings shield decodes on this runtime',
  schema: { ...ACCEPT_ENCODING_SCHEMA },
}

/**
 * What `shield` adds to every operation it runs for (it reads the path, query and headers of
 * every method, and bodies): its answers (`answers.ts`: 403 `attack_detected`; 413 and 415 with
 * `uninspected: 'refuse'`).
 */
export function shieldDescription(setup: ShieldSetup): MiddlewareDescription {
  return {
    middleware: 'shield',
    responses: responsesOf(ANSWERS, setup, { 415: [ACCEPT_ENCODING] }),
  }
}
