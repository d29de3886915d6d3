// A release's changelog entry as a person writes one, from the gate's judgements: one line per
// operation and per field, saying what happened to it in words ("`GET /widgets`: list widgets
// (experimental).", "`NewPet.nickname`: new optional field, in `POST /pets`."), under Keep a
// Changelog's headings. What a reader of the changelog does not act on stays out: components and
// examples added or removed (a new operation brings its own; a changed field is reported as the
// field), tags added with their operations. Values and prose are quoted whole or not at all.
import { type JsonObject, type OpenApiDocument, operationObjects, resolveRef } from '../../contract/document.ts';
import { type AffectedOperation, HTTP_METHODS, type Stability, subjectOf } from './changes.ts';
import type { Judgement } from './gate.ts';
import { childOf, fromPointer } from './pointer.ts';

const SECTIONS = ['Added', 'Changed', 'Deprecated', 'Removed'] as const;
type Section = (typeof SECTIONS)[number];

/** Keywords whose value is prose: revised, never quoted (it would not fit a line whole). */
const PROSE_KEYWORDS = new Set(['description', 'title', 'externalDocs']);
/** Keywords of a schema's or operation's wrapping, not of what a client reads or sends. */
const WRAPPING = new Set(['schema', 'content', 'items', 'allOf', 'oneOf', 'anyOf']);
/** A value longer than this is not quoted in a changelog line. */
const QUOTABLE_LENGTH = 40;

interface Phrase {
  section: Section;
  text: string;
  breaking: boolean;
  /** Part of what a deprecation says (its removal date, its successor): said with it when it comes too. */
  ofDeprecation?: true;
  /** Says the operation's stability itself, which the line then does not repeat. */
  ofStability?: true;
}

/** One line of the entry: an operation, a field or a component, with what happened to it. */
interface Line {
  /** `GET /widgets`, `NewPet.nickname`; for the document's own parts, words: `The API's`. */
  subject: string;
  /** Written as code (`GET /widgets`: ...) or as the start of a sentence (The API's ...). */
  kind: 'code' | 'words';
  /** The operation the line is about, whose stability it states. */
  operation?: string;
  /** The operations a field's change reaches. */
  reaches: AffectedOperation[];
  phrases: Phrase[];
}

export interface ChangedContracts {
  base: OpenApiDocument;
  working: OpenApiDocument;
}

/**
 * The entry's body: its lines under Keep a Changelog's headings (Added, Changed, Deprecated,
 * Removed), each marked **Breaking** when a client may break, each operation with its stability.
 */
export function entryFromChanges(judgements: readonly Judgement[], contracts: ChangedContracts): string {
  const stabilities = stabilityByOperation(contracts);
  const lines = new Map<string, Line>();
  const lineOf = (subject: string, kind: Line['kind'], operation?: string): Line => {
    let line = lines.get(`${kind}\n${subject}`);
    if (line === undefined) {
      line = { subject, kind, ...(operation !== undefined && { operation }), reaches: [], phrases: [] };
      lines.set(`${kind}\n${subject}`, line);
    }
    return line;
  };
  for (const judgement of judgements) {
    for (const { subject, kind, operation, phrase } of phrasesOf(judgement, contracts)) {
      const line = lineOf(subject, kind, operation);
      if (!line.phrases.some((known) => known.text === phrase.text && known.section === phrase.section))
        line.phrases.push(phrase);
      for (const reached of judgement.operations)
        if (!line.reaches.some((known) => known.name === reached.name)) line.reaches.push(reached);
    }
  }
  // Only bookkeeping changed: still a release, and its entry says of what.
  if (lines.size === 0 && judgements.length > 0)
    return `### Changed\n\n- ${judgements.every(isExample) ? 'Examples' : 'Documentation'} revised.`;

  const bySection = new Map<Section, string[]>();
  for (const line of lines.values()) {
    for (const section of SECTIONS) {
      const phrases = withoutRedundant(line.phrases).filter((phrase) => phrase.section === section);
      if (phrases.length === 0) continue;
      bySection.set(section, [...(bySection.get(section) ?? []), render(line, phrases, stabilities)]);
    }
  }
  return SECTIONS.filter((section) => bySection.has(section))
    .map((section) => `### ${section}\n\n${(bySection.get(section) ?? []).join('\n')}`)
    .join('\n\n');
}

function render(line: Line, phrases: Phrase[], stabilities: Map<string, Stability>): string {
  const breaking = phrases.some((phrase) => phrase.breaking) ? '**Breaking**: ' : '';
  const said = phrases.map((phrase) => phrase.text);
  if (line.kind === 'words') return `- ${breaking}${line.subject} ${joinWords(said)}.`;
  const marked = (name: string) => {
    const stability = stabilities.get(name);
    return stability === undefined || stability === 'stable' ? `\`${name}\`` : `\`${name}\` (${stability})`;
  };
  if (line.operation !== undefined) {
    const stability = stabilities.get(line.operation);
    const statedAlready = phrases.some((phrase) => phrase.ofStability);
    const mark = stability === undefined || stability === 'stable' || statedAlready ? '' : ` (${stability})`;
    return `- ${breaking}\`${line.subject}\`: ${said.join('; ')}${mark}.`;
  }
  const reaches = line.reaches.length > 0 ? `, in ${joinWords(line.reaches.map(({ name }) => marked(name)))}` : '';
  return `- ${breaking}\`${line.subject}\`: ${said.join('; ')}${reaches}.`;
}

/**
 * What a line's other phrases say already: a new field's line says whether it is required, a
 * removed one needs no "now optional", and a deprecation names its removal date and successor.
 */
function withoutRedundant(phrases: Phrase[]): Phrase[] {
  const isNew = phrases.some((phrase) => phrase.text.startsWith('new ') && phrase.text.endsWith(' field'));
  const isRemoved = phrases.some((phrase) => phrase.text === 'removed');
  const deprecated = phrases.some((phrase) => phrase.section === 'Deprecated');
  return phrases.filter(
    (phrase) =>
      !(
        (isNew && phrase.text === 'now required') ||
        (isRemoved && phrase.text === 'now optional') ||
        (deprecated && phrase.ofDeprecation)
      ),
  );
}

interface Placed {
  subject: string;
  kind: Line['kind'];
  operation?: string;
  phrase: Phrase;
}

/** What a judgement says, on which line; nothing for the bookkeeping a reader does not act on. */
function phrasesOf(judgement: Judgement, contracts: ChangedContracts): Placed[] {
  const segments = fromPointer(judgement.pointer);
  const [first, second, third] = segments;
  const breaking = judgement.class === 'breaking';
  const phrase = (section: Section, text: string): Phrase => ({ section, text, breaking });
  const { action } = judgement;

  // Examples illustrate; a component added or removed as a whole is bookkeeping of the contract's files.
  if (isExample(judgement)) return [];
  if (first === 'components') {
    if (segments.length <= 3) return [];
    return [fieldOrComponent(judgement, segments, contracts, phrase)];
  }
  if (first === 'paths' && second !== undefined) {
    if (third === undefined || !HTTP_METHODS.has(third)) {
      return [
        {
          subject: `path ${second}`,
          kind: 'code',
          phrase: phrase('Changed', keywordPhrase(judgement, segments.slice(2))),
        },
      ];
    }
    const operation = `${third.toUpperCase()} ${second}`;
    if (segments.length === 3) {
      const document = action === 'remove' ? contracts.base : contracts.working;
      return [wholeOperation(operation, nodeAt(document, segments) as JsonObject, judgement, phrase)];
    }
    if (segments.includes('properties')) return [fieldOrComponent(judgement, segments, contracts, phrase)];
    return [
      {
        subject: operation,
        kind: 'code',
        operation,
        phrase: operationPhrase(judgement, segments.slice(3), contracts, phrase),
      },
    ];
  }
  if (first === 'tags') {
    // A tag comes and goes with its operations; only a changed one, in both contracts, is news.
    if (segments.length <= 2) return [];
    const name = (nodeAt(contracts.working, segments.slice(0, 2)) as JsonObject | undefined)?.name;
    return [
      { subject: `The \`${String(name)}\` tag's`, kind: 'words', phrase: phrase('Changed', `${segments[2]} revised`) },
    ];
  }
  if (first === 'info') {
    return [
      { subject: "The API's", kind: 'words', phrase: phrase('Changed', keywordPhrase(judgement, segments.slice(1))) },
    ];
  }
  if (first === 'servers') {
    // The base path is what clients change for; the addresses that carry it follow.
    const text =
      judgement.pointer === '#/servers'
        ? `base path changed from ${quoted(judgement.before || '/')} to ${quoted(judgement.after || '/')}`
        : 'addresses revised';
    return [{ subject: "The servers'", kind: 'words', phrase: phrase('Changed', text) }];
  }
  return [{ subject: subjectOf(segments), kind: 'code', phrase: phrase('Changed', keywordPhrase(judgement, [])) }];
}

/** A change to an example, of a component or of an operation: a field named `example` is not one. */
function isExample({ pointer }: Judgement): boolean {
  const segments = fromPointer(pointer);
  return segments.some(
    (segment, index) => (segment === 'examples' || segment === 'example') && segments[index - 1] !== 'properties',
  );
}

/** An operation added or removed: its summary (or the first sentence of its description), or its removal. */
function wholeOperation(
  operation: string,
  definition: JsonObject | undefined,
  judgement: Judgement,
  phrase: (section: Section, text: string) => Phrase,
): Placed {
  if (judgement.action === 'remove') {
    const sunset = judgement.operations.find((found) => found.name === operation)?.sunset;
    return {
      subject: operation,
      kind: 'code',
      operation,
      phrase: phrase('Removed', sunset ? `removed (deprecated, sunset ${sunset})` : 'removed'),
    };
  }
  return {
    subject: operation,
    kind: 'code',
    operation,
    phrase: phrase('Added', whatItDoes(definition) ?? 'new operation'),
  };
}

/** `list widgets`, from the summary `List widgets`, or the whole first sentence of the description. */
function whatItDoes(definition: JsonObject | undefined): string | undefined {
  const summary = typeof definition?.summary === 'string' ? definition.summary.trim() : '';
  const description = typeof definition?.description === 'string' ? definition.description.trim() : '';
  const text =
    summary ||
    description
      .split(/(?<=[.!?])\s/)[0]
      ?.replace(/\s+/g, ' ')
      .replace(/[.!?]$/, '') ||
    '';
  if (text === '') return undefined;
  // "List widgets" starts a clause after the colon; "API keys" keeps its capitals.
  return /^[A-Z][a-z]/.test(text) ? `${text[0]?.toLowerCase()}${text.slice(1)}` : text;
}

/** A change inside an operation, other than to a field of its bodies. */
function operationPhrase(
  judgement: Judgement,
  rest: string[],
  contracts: ChangedContracts,
  phrase: (section: Section, text: string) => Phrase,
): Phrase {
  const { action, after } = judgement;
  const [keyword, name, detail, headerName] = rest;
  const document = action === 'remove' ? contracts.base : contracts.working;
  switch (keyword) {
    case 'deprecated': {
      if (after !== true) return phrase('Changed', 'no longer deprecated');
      const operation = nodeAt(contracts.working, fromPointer(judgement.pointer).slice(0, 3)) as JsonObject | undefined;
      const sunset = typeof operation?.['x-sunset'] === 'string' ? `, to be removed on ${operation['x-sunset']}` : '';
      const successor = typeof operation?.['x-successor'] === 'string' ? `; use \`${operation['x-successor']}\`` : '';
      return phrase('Deprecated', `deprecated${sunset}${successor}`);
    }
    case 'x-stability':
      return {
        ...phrase(
          'Changed',
          action === 'remove' ? `now stable (was ${String(judgement.before)})` : `now ${String(after)}`,
        ),
        ofStability: true,
      };
    case 'x-sunset':
      return {
        ...phrase('Changed', action === 'remove' ? 'no removal date any more' : `to be removed on ${String(after)}`),
        ofDeprecation: true,
      };
    case 'x-successor':
      return {
        ...phrase('Changed', action === 'remove' ? 'no successor any more' : `replaced by \`${String(after)}\``),
        ofDeprecation: true,
      };
    case 'parameters': {
      if (detail !== undefined) return phrase('Changed', keywordPhrase(judgement, rest));
      // A parameters list that did not exist before is reported whole: its (first) parameter is the one added.
      const found = nodeAt(document, fromPointer(judgement.pointer));
      const parameter = resolveRef<JsonObject>(document, Array.isArray(found) ? found[0] : found);
      const described = `${parameter.required === true ? 'required' : 'optional'} ${String(parameter.in)} parameter \`${String(parameter.name)}\``;
      return action === 'remove'
        ? phrase('Removed', `${described.replace(/^(required|optional) /, '')} removed`)
        : action === 'add'
          ? phrase('Added', `new ${described}`)
          : phrase('Changed', `${described.replace(/^(required|optional) /, '')} changed`);
    }
    case 'responses': {
      if (name === undefined) break;
      if (detail === undefined)
        return action === 'remove'
          ? phrase('Removed', `response ${name} removed`)
          : phrase('Added', `new response ${name}`);
      if (detail === 'headers' && headerName !== undefined && rest.length === 4)
        return action === 'remove'
          ? phrase('Removed', `header \`${headerName}\` of response ${name} removed`)
          : phrase('Added', `new header \`${headerName}\` on response ${name}`);
      return phrase('Changed', `response ${name}: ${keywordPhrase(judgement, rest.slice(2))}`);
    }
    case 'requestBody':
      if (rest.length === 1)
        return action === 'remove'
          ? phrase('Removed', 'request body removed')
          : phrase('Added', 'now takes a request body');
      return phrase('Changed', `request body: ${keywordPhrase(judgement, rest.slice(1))}`);
  }
  return phrase('Changed', keywordPhrase(judgement, rest));
}

/** A change to a field (a property of a schema) or, outside any, to a component as a whole. */
function fieldOrComponent(
  judgement: Judgement,
  segments: string[],
  contracts: ChangedContracts,
  phrase: (section: Section, text: string) => Phrase,
): Placed {
  const { action } = judgement;
  const document = action === 'remove' ? contracts.base : contracts.working;
  // `required` lists field names: the change is the named field's.
  if (segments.at(-2) === 'required') {
    const field = String(action === 'remove' ? judgement.before : judgement.after);
    const subject = `${subjectOf(segments.slice(0, -2))}.${field}`;
    return { subject, kind: 'code', phrase: phrase('Changed', action === 'remove' ? 'now optional' : 'now required') };
  }
  const at = segments.lastIndexOf('properties');
  if (at >= 0 && segments[at + 1] !== undefined) {
    const subject = subjectOf(segments.slice(0, at + 2));
    const rest = segments.slice(at + 2);
    if (rest.length > 0 || action === 'replace')
      return { subject, kind: 'code', phrase: keywordChange(judgement, rest, phrase) };
    if (action === 'remove') return { subject, kind: 'code', phrase: phrase('Removed', 'removed') };
    const parent = nodeAt(document, segments.slice(0, at)) as JsonObject | undefined;
    const required = Array.isArray(parent?.required) && parent.required.includes(segments[at + 1]);
    return { subject, kind: 'code', phrase: phrase('Added', `new ${required ? 'required' : 'optional'} field`) };
  }
  // A component's own keyword: `PetStatus` gains a value, `Limit`'s maximum is lowered.
  return { subject: segments[2] ?? '', kind: 'code', phrase: keywordChange(judgement, segments.slice(3), phrase) };
}

/** A keyword's change under the heading it belongs to: a new value is an addition, a dropped one a removal. */
function keywordChange(
  judgement: Judgement,
  rest: string[],
  phrase: (section: Section, text: string) => Phrase,
): Phrase {
  const text = keywordPhrase(judgement, rest);
  if (text.startsWith('new value')) return phrase('Added', text);
  if (/^(a )?value .*removed$/.test(text)) return phrase('Removed', text);
  return phrase('Changed', text);
}

/** A keyword's change in words: `maximum changed from 100 to 50`, `new value \`adopted\``, `description revised`. */
function keywordPhrase(judgement: Judgement, rest: string[]): string {
  const { action, before, after } = judgement;
  const meaningful = rest.filter(
    (segment, index) => !WRAPPING.has(segment) && rest[index - 1] !== 'content' && !/^\d+$/.test(segment),
  );
  const keyword = meaningful.at(-1) ?? '';
  if (rest.at(-2) === 'enum' || (keyword === 'enum' && action !== 'replace')) {
    const value = action === 'remove' ? before : after;
    const shown = quoted(value);
    if (action === 'add') return shown === undefined ? 'new value' : `new value ${shown}`;
    if (action === 'remove') return shown === undefined ? 'a value removed' : `value ${shown} removed`;
  }
  const label = meaningful.join('.') || 'definition';
  if (PROSE_KEYWORDS.has(keyword)) return `${label} revised`;
  if (keyword === 'summary' && typeof after === 'string') return `summary now “${after}”`;
  switch (action) {
    case 'add': {
      const value = quoted(after);
      return value === undefined ? `${label} added` : `${label} set to ${value}`;
    }
    case 'remove':
      return `${label} removed`;
    default: {
      const [from, to] = [quoted(before), quoted(after)];
      return from === undefined || to === undefined ? `${label} changed` : `${label} changed from ${from} to ${to}`;
    }
  }
}

/** A value as code when it is short enough to quote whole; undefined otherwise. */
function quoted(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length <= QUOTABLE_LENGTH && !text.includes('`') ? `\`${text}\`` : undefined;
}

function joinWords(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

function nodeAt(document: unknown, segments: readonly string[]): unknown {
  return segments.reduce<unknown>((node, segment) => childOf(node, segment), document);
}

/** Each operation's stability as the working contract marks it, or the base for one it removes. */
function stabilityByOperation({ base, working }: ChangedContracts): Map<string, Stability> {
  const found = new Map<string, Stability>();
  for (const document of [base, working]) {
    for (const { method, path, definition } of operationObjects(document)) {
      const stability = definition['x-stability'];
      found.set(`${method} ${path}`, stability === 'experimental' || stability === 'beta' ? stability : 'stable');
    }
  }
  return found;
}
