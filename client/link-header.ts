/** One link of an RFC 8288 `Link` header: its target as written and its parameters. */
export interface Link {
  target: string;
  /** Relation types, lower-cased; `rel` may hold several, separated by spaces. */
  rel: string[];
  /** Parameters by lower-cased name; the first occurrence of a name wins, as RFC 8288 asks for `rel`. */
  params: Record<string, string>;
}

const TOKEN = /[!#$%&'*+\-.^_`|~0-9A-Za-z]+/y;
const WHITESPACE = /[ \t]*/y;

/**
 * Parses a `Link` header value (RFC 8288 section 3). Several links share one header separated by
 * commas, and a comma or semicolon may sit inside `<...>` or a quoted string, so a split on
 * commas is not enough. A link that cannot be read is skipped rather than failing the header.
 */
export function parseLinkHeader(value: string): Link[] {
  const links: Link[] = [];
  let position = 0;

  const skipWhitespace = () => {
    WHITESPACE.lastIndex = position;
    WHITESPACE.exec(value);
    position = WHITESPACE.lastIndex;
  };
  const readToken = (): string | undefined => {
    TOKEN.lastIndex = position;
    const match = TOKEN.exec(value);
    if (!match) return undefined;
    position = TOKEN.lastIndex;
    return match[0];
  };
  const readQuoted = (): string | undefined => {
    let text = '';
    for (position += 1; position < value.length; position += 1) {
      const char = value[position];
      if (char === '"') {
        position += 1;
        return text;
      }
      if (char === '\\') position += 1;
      text += value[position] ?? '';
    }
    return undefined;
  };
  /** Moves past the rest of an unreadable link, honouring quotes, to the comma that ends it. */
  const skipToNextLink = () => {
    while (position < value.length && value[position] !== ',') {
      if (value[position] === '"') readQuoted();
      else position += 1;
    }
  };

  while (position < value.length) {
    skipWhitespace();
    if (value[position] === ',') {
      position += 1;
      continue;
    }
    const link = readLink();
    if (link) links.push(link);
    else skipToNextLink();
  }
  return links;

  function readLink(): Link | undefined {
    if (value[position] !== '<') return undefined;
    const end = value.indexOf('>', position);
    if (end === -1) {
      position = value.length;
      return undefined;
    }
    const target = value.slice(position + 1, end).trim();
    position = end + 1;
    const params: Record<string, string> = {};
    for (;;) {
      skipWhitespace();
      if (position >= value.length || value[position] === ',') break;
      if (value[position] !== ';') return undefined;
      position += 1;
      skipWhitespace();
      const name = readToken()?.toLowerCase();
      if (name === undefined) return undefined;
      skipWhitespace();
      let paramValue = '';
      if (value[position] === '=') {
        position += 1;
        skipWhitespace();
        const read = value[position] === '"' ? readQuoted() : readToken();
        if (read === undefined) return undefined;
        paramValue = read;
      }
      if (!(name in params)) params[name] = paramValue;
    }
    const rel = (params.rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
    return { target, rel, params };
  }
}

/** The target of the first link with relation type `rel` in a `Link` header, if any. */
export function findLink(header: string | null, rel: string): string | undefined {
  if (header === null) return undefined;
  return parseLinkHeader(header).find((link) => link.rel.includes(rel.toLowerCase()))?.target;
}
