// A small, strict XML 1.0 reader for the JUnit test: elements, attributes, text, the five predefined entities and
// character references, comments and the prolog. It throws on anything not well-formed (unclosed or mismatched
// tags, a bare & or <, an unknown entity, duplicate or unquoted attributes, characters XML forbids, trailing
// content), which is what a CI system's parser would choke on.
export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

const NAME = /[A-Za-z_:][A-Za-z0-9._:-]*/y
// biome-ignore lint/suspicious/noControlCharactersInRegex: the characters XML 1.0 forbids
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/

function decode(raw: string, at: number): string {
  if (raw.includes('<')) throw new Error(`raw < at ${at}`)
  return raw.replace(/&([^;]*);|&/g, (_m, ref: string | undefined) => {
    if (ref === undefined) throw new Error(`bare & at ${at}`)
    const named: Record<string, string> = {amp: '&', lt: '<', gt: '>', quot: '"', apos: "'"}
    if (ref in named) return named[ref]
    const num = /^#(x[0-9A-Fa-f]+|[0-9]+)$/.exec(ref)
    if (!num) throw new Error(`unknown entity &${ref}; at ${at}`)
    const code = num[1].startsWith('x') ? parseInt(num[1].slice(1), 16) : Number(num[1])
    const ch = String.fromCodePoint(code)
    if (FORBIDDEN.test(ch)) throw new Error(`forbidden character reference &${ref}; at ${at}`)
    return ch
  })
}

export function parseXml(text: string): XmlElement {
  if (FORBIDDEN.test(text)) throw new Error('a character XML 1.0 forbids')
  let pos = 0
  const skipWs = () => {
    while (pos < text.length && /\s/.test(text[pos])) pos++
  }
  const expect = (s: string) => {
    if (!text.startsWith(s, pos)) throw new Error(`expected ${JSON.stringify(s)} at ${pos}, found ${JSON.stringify(text.slice(pos, pos + 20))}`)
    pos += s.length
  }
  const name = (): string => {
    NAME.lastIndex = pos
    const m = NAME.exec(text)
    if (!m) throw new Error(`expected a name at ${pos}`)
    pos = NAME.lastIndex
    return m[0]
  }
  const misc = () => {
    for (;;) {
      skipWs()
      if (text.startsWith('<!--', pos)) {
        const end = text.indexOf('-->', pos)
        if (end === -1) throw new Error('unclosed comment')
        pos = end + 3
      } else return
    }
  }
  const element = (): XmlElement => {
    expect('<')
    const el: XmlElement = {name: name(), attributes: {}, children: [], text: ''}
    for (;;) {
      const before = pos
      skipWs()
      if (text.startsWith('/>', pos)) {
        pos += 2
        return el
      }
      if (text[pos] === '>') {
        pos++
        break
      }
      if (pos === before) throw new Error(`expected whitespace before an attribute at ${pos}`)
      const attr = name()
      skipWs()
      expect('=')
      skipWs()
      const q = text[pos]
      if (q !== '"' && q !== "'") throw new Error(`unquoted attribute ${attr} at ${pos}`)
      const end = text.indexOf(q, pos + 1)
      if (end === -1) throw new Error(`unclosed attribute ${attr}`)
      if (attr in el.attributes) throw new Error(`duplicate attribute ${attr} on <${el.name}>`)
      el.attributes[attr] = decode(text.slice(pos + 1, end), pos)
      pos = end + 1
    }
    for (;;) {
      const lt = text.indexOf('<', pos)
      if (lt === -1) throw new Error(`<${el.name}> is never closed`)
      el.text += decode(text.slice(pos, lt), pos)
      pos = lt
      if (text.startsWith('</', pos)) {
        pos += 2
        const closing = name()
        if (closing !== el.name) throw new Error(`</${closing}> closes <${el.name}> at ${pos}`)
        skipWs()
        expect('>')
        return el
      }
      if (text.startsWith('<!--', pos)) {
        misc()
        continue
      }
      el.children.push(element())
    }
  }
  if (text.startsWith('<?xml', pos)) {
    const end = text.indexOf('?>', pos)
    if (end === -1) throw new Error('unclosed XML declaration')
    if (!/^<\?xml version="1\.[0-9]"( encoding="[A-Za-z0-9._-]+")?( standalone="(yes|no)")?\s*\?>$/.test(text.slice(pos, end + 2)))
      throw new Error('malformed XML declaration')
    pos = end + 2
  }
  misc()
  const root = element()
  misc()
  if (pos !== text.length) throw new Error(`content after the root element at ${pos}`)
  return root
}
