import type { MiddlewareDescription } from '@palisade/shared/describe'
import { responsesOf } from '../internal/outcomes/answers'
import { methodsExcept } from '../internal/outcomes/described'
import { ANSWERS } from './answers'

/**
 * What `csrf` adds to operations with an unsafe method: the token header as an apiKey scheme (so
 * an explorer's Authorize can send it; the cookie travels by itself) and its answers
 * (`answers.ts`: 403).
 */
export function csrfDescription(
  headerName: string,
  cookieName: string,
  safeMethods: ReadonlySet<string>,
): MiddlewareDescription {
  return {
    middleware: 'csrf',
    methods: methodsExcept(safeMethods),
    security: [
      [
        {
          name: 'csrfToken',
          scheme: {
            type: 'apiKey',
            in: 'header',
            name: headerName,
            description: `The value of the ${cookieName} cookie (double submit)`,
          },
        },
      ],
    ],
    responses: responsesOf(ANSWERS, undefined),
  }
}
