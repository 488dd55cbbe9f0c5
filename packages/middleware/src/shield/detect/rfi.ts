import type { InputKind } from './index'
import type { Paranoia, Subject } from './subject'

export function detectRfi(subject: Subject, kind: InputKind, paranoia: Paranoia): boolean {
  return false
}
