// The changes as text (a terminal), markdown (a pull-request comment) or JSON (a program).
import { blockingChanges } from './diff'
import type { Change } from './walk'

export type DiffFormat = 'text' | 'markdown' | 'json'

function counts(changes: readonly Change[]): string {
  const n = (level: Change['level']) => changes.filter((c) => c.level === level).length
  const allowed = changes.filter((c) => c.allowed !== undefined).length
  return `${n('breaking')} breaking${allowed > 0 ? ` (${allowed} allowed)` : ''}, ${n('info')} info, ${n('non-breaking')} non-breaking`
}

const tag = (c: Change) =>
  c.allowed === undefined
    ? c.level
    : `${c.level}, allowed by ${c.allowed === 'note' ? 'x-palisade-breaking-ok' : '--allow'}`

function text(changes: readonly Change[]): string {
  if (changes.length === 0) return 'diff: no changes\n'
  const lines = changes.map((c) => {
    const at = c.new ?? c.old ?? ''
    return `${tag(c).padEnd(12)} ${c.id}\n  ${c.operation ? `${c.operation}: ` : ''}${c.message}\n  at ${at}`
  })
  return `${lines.join('\n')}\n${counts(changes)}\n`
}

const cell = (value: string) => value.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ')
const code = (value: string | undefined) => (value === undefined ? '' : `\`${cell(value)}\``)

const ICON = { breaking: '🔴', info: '🟡', 'non-breaking': '🟢' } as const

function markdown(changes: readonly Change[]): string {
  if (changes.length === 0) return '**API diff:** no changes.\n'
  const blocking = blockingChanges(changes).length
  const head =
    blocking > 0
      ? `**API diff: ${blocking} breaking change(s)** (${counts(changes)})`
      : `**API diff:** no unallowed breaking change (${counts(changes)})`
  const rows = changes.map(
    (c) =>
      `| ${ICON[c.level]} ${cell(tag(c))} | ${code(c.operation)} | ${cell(c.message)} | ${code(c.id)} | ${code(c.old)} | ${code(c.new)} |`,
  )
  return [
    head,
    '',
    '| Level | Operation | Change | Rule | Old | New |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
  ].join('\n')
}

/** Renders `changes` as `format`. */
export function formatDiff(changes: readonly Change[], format: DiffFormat): string {
  if (format === 'json') {
    const summary = {
      breaking: changes.filter((c) => c.level === 'breaking').length,
      blocking: blockingChanges(changes).length,
      info: changes.filter((c) => c.level === 'info').length,
      nonBreaking: changes.filter((c) => c.level === 'non-breaking').length,
    }
    return `${JSON.stringify({ summary, changes }, null, 2)}\n`
  }
  return format === 'markdown' ? markdown(changes) : text(changes)
}
