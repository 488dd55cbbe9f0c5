import type { Scan } from './scan'

/** End of a construct opening at `from`, or the end of the text when it never closes. */
function endOf(text: string, close: string, from: number): number {
  const at = text.indexOf(close, from)
  return at === -1 ? text.length : at + close.length
}

/**
 * Inspects an XML body as a parser hands it to the application, in one linear pass: text between
 * tags and CDATA sections as `body`; start tags, the document type declaration (where external
 * entities point: XXE) and processing instructions (`<?php`) as written. Comments are skipped.
 * Locations are `body`. True when inspection should stop.
 */
export function scanXml(text: string, scan: Scan): boolean {
  const where = () => 'body'
  let i = 0
  while (i < text.length) {
    const lt = text.indexOf('<', i)
    const textEnd = lt === -1 ? text.length : lt
    if (textEnd > i && scan.body(text.slice(i, textEnd).trim(), 'body', where)) return true
    if (lt === -1) return false
    let end: number
    let inspect: string
    if (text.startsWith('<!--', lt)) {
      end = endOf(text, '-->', lt + 4)
      inspect = ''
    } else if (text.startsWith('<![CDATA[', lt)) {
      end = endOf(text, ']]>', lt + 9)
      inspect = text.slice(lt + 9, Math.max(lt + 9, end - 3))
    } else if (text.startsWith('<!', lt)) {
      // A DOCTYPE's internal subset holds its own `>`s: it ends at `]>` when it has one.
      const bracket = text.indexOf('[', lt)
      const close = text.indexOf('>', lt)
      end = bracket !== -1 && bracket < close ? endOf(text, ']>', bracket) : endOf(text, '>', lt)
      inspect = text.slice(lt, end)
    } else if (text.startsWith('<?', lt)) {
      end = endOf(text, '?>', lt + 2)
      inspect = text.slice(lt, end)
    } else {
      end = endOf(text, '>', lt + 1)
      // A start tag as written, attributes and all: an element named `script`, an `onerror`
      // attribute, are what an application that renders the XML as HTML would run. An end tag
      // (`</b>`) carries nothing.
      inspect = text.charCodeAt(lt + 1) === 47 /* / */ ? '' : text.slice(lt, end)
    }
    if (inspect !== '' && scan.body(inspect, 'body', where)) return true
    i = end
  }
  return false
}
