// The rules `diff` applies: a stable id, our level, and oasdiff's id and level where the two
// overlap. Ids are oasdiff's wherever oasdiff has the same check (checker/rules.go at oasdiff
// commit 4553c69d), so an `--allow` list or an ignore note reads the same in both tools.

/**
 * `breaking`: a client that followed the old document can fail under the new one.
 * `non-breaking`: the contract changed and no old client notices (an addition, a relaxation).
 * `info`: worth a reviewer's eye, breaking only for clients stricter than the contract (a new enum
 * value in a response, a removed optional property).
 */
export type ChangeLevel = 'breaking' | 'non-breaking' | 'info'

/** oasdiff's levels: ERR (breaking), WARN (potentially breaking), INFO (non-breaking). */
export type OasdiffLevel = 'ERR' | 'WARN' | 'INFO'

export interface DiffRule {
  id: string
  level: ChangeLevel
  /** What the rule reports, in a few words. */
  summary: string
  /** oasdiff's check of the same id and its default level, when oasdiff has one. */
  oasdiff?: OasdiffLevel
}

/**
 * oasdiff's default level of each check id we share (every id of ours that oasdiff's
 * checker/rules.go defines, with its level there).
 */
const OASDIFF: Record<string, OasdiffLevel> = {
  'api-path-removed-without-deprecation': 'ERR',
  'api-path-removed-with-deprecation': 'INFO',
  'api-path-removed-before-sunset': 'ERR',
  'api-removed-without-deprecation': 'ERR',
  'api-removed-with-deprecation': 'INFO',
  'api-removed-before-sunset': 'ERR',
  'endpoint-deprecated': 'INFO',
  'endpoint-reactivated': 'INFO',
  'sunset-deleted': 'ERR',
  'api-sunset-date-changed-too-small': 'ERR',
  'endpoint-added': 'INFO',
  'new-required-request-parameter': 'ERR',
  'new-optional-request-parameter': 'INFO',
  'request-parameter-removed': 'WARN',
  'request-parameter-became-required': 'ERR',
  'request-parameter-became-optional': 'INFO',
  'request-body-added-required': 'ERR',
  'request-body-added-optional': 'INFO',
  'request-body-removed': 'ERR',
  'request-body-became-required': 'ERR',
  'request-body-became-optional': 'INFO',
  'request-body-media-type-removed': 'ERR',
  'request-body-media-type-added': 'INFO',
  'new-required-request-property': 'ERR',
  'new-optional-request-property': 'INFO',
  'request-property-removed': 'WARN',
  'request-property-became-required': 'ERR',
  'request-property-became-optional': 'INFO',
  'response-success-status-removed': 'ERR',
  'response-non-success-status-removed': 'INFO',
  'response-success-status-added': 'INFO',
  'response-non-success-status-added': 'INFO',
  'response-media-type-removed': 'ERR',
  'response-media-type-added': 'INFO',
  'response-required-property-added': 'INFO',
  'response-optional-property-added': 'INFO',
  'response-required-property-removed': 'ERR',
  'response-optional-property-removed': 'WARN',
  'response-property-became-optional': 'ERR',
  'response-property-became-required': 'INFO',
  'api-security-added': 'INFO',
  'api-security-scope-added': 'INFO',
  'api-security-removed': 'INFO',
  'api-security-scope-removed': 'INFO',
  'request-parameter-type-changed': 'ERR',
  'request-parameter-type-generalized': 'INFO',
  'request-parameter-became-nullable': 'INFO',
  'request-parameter-became-not-nullable': 'ERR',
  'request-parameter-enum-value-removed': 'ERR',
  'request-parameter-enum-value-added': 'INFO',
  'request-parameter-became-enum': 'ERR',
  'request-parameter-pattern-added': 'ERR',
  'request-parameter-pattern-changed': 'WARN',
  'request-parameter-pattern-removed': 'INFO',
  'request-parameter-max-length-decreased': 'ERR',
  'request-parameter-max-length-set': 'WARN',
  'request-parameter-max-length-increased': 'INFO',
  'request-parameter-max-decreased': 'ERR',
  'request-parameter-max-set': 'WARN',
  'request-parameter-max-increased': 'INFO',
  'request-parameter-max-items-decreased': 'ERR',
  'request-parameter-max-items-increased': 'INFO',
  'request-parameter-min-length-increased': 'ERR',
  'request-parameter-min-length-decreased': 'INFO',
  'request-parameter-min-increased': 'ERR',
  'request-parameter-min-set': 'WARN',
  'request-parameter-min-decreased': 'INFO',
  'request-parameter-min-items-increased': 'ERR',
  'request-parameter-min-items-set': 'WARN',
  'request-parameter-min-items-decreased': 'INFO',
  'request-body-type-changed': 'ERR',
  'request-body-type-generalized': 'INFO',
  'request-body-became-nullable': 'INFO',
  'request-body-became-not-nullable': 'ERR',
  'request-body-enum-value-removed': 'ERR',
  'request-body-became-enum': 'ERR',
  'request-body-max-length-decreased': 'ERR',
  'request-body-max-length-set': 'WARN',
  'request-body-max-length-increased': 'INFO',
  'request-body-max-decreased': 'ERR',
  'request-body-max-set': 'WARN',
  'request-body-max-increased': 'INFO',
  'request-body-min-length-increased': 'ERR',
  'request-body-min-length-decreased': 'INFO',
  'request-body-min-increased': 'ERR',
  'request-body-min-set': 'WARN',
  'request-body-min-decreased': 'INFO',
  'request-body-min-items-increased': 'ERR',
  'request-body-min-items-set': 'WARN',
  'request-property-type-changed': 'ERR',
  'request-property-type-generalized': 'INFO',
  'request-property-became-nullable': 'INFO',
  'request-property-became-not-nullable': 'ERR',
  'request-property-enum-value-removed': 'ERR',
  'request-property-enum-value-added': 'INFO',
  'request-property-became-enum': 'ERR',
  'request-property-pattern-added': 'ERR',
  'request-property-pattern-changed': 'WARN',
  'request-property-pattern-removed': 'INFO',
  'request-property-max-length-decreased': 'ERR',
  'request-property-max-length-set': 'WARN',
  'request-property-max-length-increased': 'INFO',
  'request-property-max-decreased': 'ERR',
  'request-property-max-set': 'WARN',
  'request-property-max-increased': 'INFO',
  'request-property-min-length-increased': 'ERR',
  'request-property-min-length-decreased': 'INFO',
  'request-property-min-increased': 'ERR',
  'request-property-min-set': 'WARN',
  'request-property-min-decreased': 'INFO',
  'request-property-min-items-increased': 'ERR',
  'request-property-min-items-set': 'WARN',
  'response-body-type-changed': 'ERR',
  'response-body-type-generalized': 'ERR',
  'response-body-type-specialized': 'INFO',
  'response-body-became-nullable': 'ERR',
  'response-body-became-not-nullable': 'INFO',
  'response-body-max-length-increased': 'ERR',
  'response-body-max-length-unset': 'ERR',
  'response-body-max-increased': 'ERR',
  'response-body-min-length-decreased': 'ERR',
  'response-body-min-decreased': 'ERR',
  'response-body-min-items-decreased': 'ERR',
  'response-body-min-items-unset': 'ERR',
  'response-property-type-changed': 'ERR',
  'response-property-type-generalized': 'ERR',
  'response-property-type-specialized': 'INFO',
  'response-property-became-nullable': 'ERR',
  'response-property-became-not-nullable': 'INFO',
  'response-property-enum-value-removed': 'INFO',
  'response-property-enum-value-added': 'WARN',
  'response-property-pattern-added': 'INFO',
  'response-property-pattern-changed': 'INFO',
  'response-property-pattern-removed': 'INFO',
  'response-property-max-length-increased': 'ERR',
  'response-property-max-length-unset': 'ERR',
  'response-property-max-increased': 'ERR',
  'response-property-min-length-decreased': 'ERR',
  'response-property-min-decreased': 'ERR',
  'response-property-min-items-decreased': 'ERR',
  'response-property-min-items-unset': 'ERR',
}

/** Where a schema sits: its rules are named `<subject>-<check>`, as oasdiff names them. */
export type SchemaSubject =
  | 'request-parameter'
  | 'request-body'
  | 'request-property'
  | 'response-body'
  | 'response-property'

export const SUBJECTS: readonly SchemaSubject[] = [
  'request-parameter',
  'request-body',
  'request-property',
  'response-body',
  'response-property',
]

/** Bounds by keyword: the name in rule ids and whether a larger value accepts more. */
export const BOUNDS = [
  ['maxLength', 'max-length', 'upper'],
  ['maximum', 'max', 'upper'],
  ['maxItems', 'max-items', 'upper'],
  ['minLength', 'min-length', 'lower'],
  ['minimum', 'min', 'lower'],
  ['minItems', 'min-items', 'lower'],
] as const

/**
 * Schema checks: [check, summary, level in a request, level in a response]. A request that
 * accepts less breaks clients; a response that may send more breaks them.
 */
const SCHEMA_CHECKS: Array<[string, string, ChangeLevel, ChangeLevel]> = [
  ['type-changed', 'type or format changed', 'breaking', 'breaking'],
  ['type-generalized', 'type widened or format removed', 'non-breaking', 'breaking'],
  ['type-specialized', 'type narrowed or format added (response)', 'breaking', 'non-breaking'],
  ['became-nullable', 'null accepted', 'non-breaking', 'breaking'],
  ['became-not-nullable', 'null no longer accepted', 'breaking', 'non-breaking'],
  ['enum-value-removed', 'enum value removed', 'breaking', 'non-breaking'],
  [
    'enum-value-added',
    'enum value added (response: breaking with strictEnums)',
    'non-breaking',
    'info',
  ],
  ['became-enum', 'values restricted to an enum', 'breaking', 'non-breaking'],
  ['pattern-added', 'pattern added', 'breaking', 'non-breaking'],
  ['pattern-changed', 'pattern changed', 'info', 'info'],
  ['pattern-removed', 'pattern removed', 'non-breaking', 'info'],
]

function schemaRules(): DiffRule[] {
  const rules: DiffRule[] = []
  for (const subject of SUBJECTS) {
    const request = subject.startsWith('request')
    for (const [check, summary, inRequest, inResponse] of SCHEMA_CHECKS) {
      // A narrower type in a request is reported as type-changed, as oasdiff does.
      if (request && check === 'type-specialized') continue
      rules.push({ id: `${subject}-${check}`, level: request ? inRequest : inResponse, summary })
    }
    for (const [, name, side] of BOUNDS) {
      const narrower = side === 'upper' ? 'decreased' : 'increased'
      const wider = side === 'upper' ? 'increased' : 'decreased'
      const narrows: ChangeLevel = request ? 'breaking' : 'non-breaking'
      const widens: ChangeLevel = request ? 'non-breaking' : 'breaking'
      rules.push(
        { id: `${subject}-${name}-${narrower}`, level: narrows, summary: `${name} ${narrower}` },
        {
          id: `${subject}-${name}-set`,
          level: narrows,
          summary: `${name} set where there was none`,
        },
        { id: `${subject}-${name}-${wider}`, level: widens, summary: `${name} ${wider}` },
        { id: `${subject}-${name}-unset`, level: widens, summary: `${name} removed` },
      )
    }
  }
  return rules
}

const FIXED: Array<[string, ChangeLevel, string]> = [
  ['api-path-removed-without-deprecation', 'breaking', 'path removed'],
  ['api-path-removed-with-deprecation', 'non-breaking', 'deprecated path removed'],
  ['api-path-removed-before-sunset', 'breaking', 'deprecated path removed before its x-sunset'],
  ['api-removed-without-deprecation', 'breaking', 'operation (method) removed'],
  ['api-removed-with-deprecation', 'non-breaking', 'deprecated operation removed'],
  ['api-removed-before-sunset', 'breaking', 'deprecated operation removed before its x-sunset'],
  ['endpoint-deprecated', 'non-breaking', 'operation deprecated'],
  ['endpoint-reactivated', 'non-breaking', 'operation no longer deprecated'],
  ['sunset-deleted', 'info', 'x-sunset removed from a deprecated operation'],
  [
    'api-sunset-date-changed-too-small',
    'breaking',
    'x-sunset of a deprecated operation moved earlier',
  ],
  ['endpoint-added', 'non-breaking', 'operation added'],
  ['new-required-request-parameter', 'breaking', 'required parameter added'],
  ['new-optional-request-parameter', 'non-breaking', 'optional parameter added'],
  ['request-parameter-removed', 'info', 'parameter removed (old clients may still send it)'],
  ['request-parameter-became-required', 'breaking', 'parameter became required'],
  ['request-parameter-became-optional', 'non-breaking', 'parameter became optional'],
  ['request-body-added-required', 'breaking', 'required request body added'],
  ['request-body-added-optional', 'non-breaking', 'optional request body added'],
  ['request-body-removed', 'breaking', 'request body removed'],
  ['request-body-became-required', 'breaking', 'request body became required'],
  ['request-body-became-optional', 'non-breaking', 'request body became optional'],
  ['request-body-media-type-removed', 'breaking', 'request media type removed'],
  ['request-body-media-type-added', 'non-breaking', 'request media type added'],
  ['new-required-request-property', 'breaking', 'required request property added'],
  ['new-optional-request-property', 'non-breaking', 'optional request property added'],
  ['request-property-removed', 'info', 'request property removed'],
  ['request-property-became-required', 'breaking', 'request property became required'],
  ['request-property-became-optional', 'non-breaking', 'request property became optional'],
  ['response-success-status-removed', 'breaking', '2xx/3xx response status removed'],
  ['response-non-success-status-removed', 'non-breaking', '4xx/5xx/default response removed'],
  ['response-success-status-added', 'non-breaking', '2xx/3xx response status added'],
  ['response-non-success-status-added', 'non-breaking', '4xx/5xx/default response added'],
  ['response-media-type-removed', 'breaking', 'response media type removed'],
  ['response-media-type-added', 'non-breaking', 'response media type added'],
  ['response-required-property-added', 'non-breaking', 'required response property added'],
  ['response-optional-property-added', 'non-breaking', 'optional response property added'],
  ['response-required-property-removed', 'breaking', 'required response property removed'],
  ['response-optional-property-removed', 'info', 'optional response property removed'],
  ['response-property-became-optional', 'breaking', 'response property became optional'],
  ['response-property-became-required', 'non-breaking', 'response property became required'],
  [
    'api-security-added',
    'breaking',
    'security required where the old requirement no longer suffices',
  ],
  ['api-security-scope-added', 'breaking', 'scope added to a required security scheme'],
  ['api-security-removed', 'non-breaking', 'security scheme no longer required'],
  ['api-security-scope-removed', 'non-breaking', 'scope no longer required'],
  ['api-security-alternative-added', 'non-breaking', 'another way to authenticate accepted'],
  ['response-link-removed', 'info', 'link removed from a response (no request or answer changes)'],
  ['response-link-added', 'non-breaking', 'link added to a response'],
  ['response-link-changed', 'info', "a link's target or values changed"],
  ['callback-removed', 'breaking', 'callback request removed: subscribers stop being called'],
  ['callback-added', 'non-breaking', 'callback request added'],
  ['api-server-removed', 'breaking', 'server removed'],
  ['api-server-added', 'non-breaking', 'server added'],
]

function buildRules(): ReadonlyMap<string, DiffRule> {
  const all: DiffRule[] = [
    ...FIXED.map(([id, level, summary]) => ({ id, level, summary })),
    ...schemaRules(),
  ]
  const map = new Map<string, DiffRule>()
  for (const rule of all) {
    const oasdiff = OASDIFF[rule.id]
    map.set(rule.id, Object.freeze(oasdiff ? { ...rule, oasdiff } : rule))
  }
  return map
}

/** Every rule `diff` applies, by id. */
export const DIFF_RULES: ReadonlyMap<string, DiffRule> = buildRules()

/** The level of a rule id (an id this module builds, so always known). */
export function levelOf(id: string): ChangeLevel {
  return DIFF_RULES.get(id)?.level ?? 'info'
}

/** oasdiff's level read as ours: ERR breaking, WARN info, INFO non-breaking. */
export function fromOasdiff(level: OasdiffLevel): ChangeLevel {
  return level === 'ERR' ? 'breaking' : level === 'WARN' ? 'info' : 'non-breaking'
}
