import { describe, expect, it } from 'vitest';
import { findLink, parseLinkHeader } from '../../client/index.ts';

describe('parseLinkHeader', () => {
  it('reads the target, relation types and parameters of each link', () => {
    expect(
      parseLinkHeader('</v1/pets?limit=20&cursor=x>; rel="next", </v1/pets>; rel="successor-version"; title="List"'),
    ).toEqual([
      { target: '/v1/pets?limit=20&cursor=x', rel: ['next'], params: { rel: 'next' } },
      { target: '/v1/pets', rel: ['successor-version'], params: { rel: 'successor-version', title: 'List' } },
    ]);
  });

  it.each([
    ['an unquoted rel', '</a>; rel=next', ['next']],
    ['a rel in capitals', '</a>; REL="Next"', ['next']],
    ['several relation types', '</a>; rel="prev next"', ['prev', 'next']],
    ['spaces around the separators', '</a> ;  rel = "next" ', ['next']],
    ['a second rel, which is ignored', '</a>; rel="next"; rel="prev"', ['next']],
  ])('reads %s', (_name, header, rel) => {
    expect(parseLinkHeader(header)[0]?.rel).toEqual(rel);
  });

  it('keeps commas and semicolons inside a target or a quoted string', () => {
    expect(parseLinkHeader('</a?x=1,2;3>; title="one, two; three"; rel="next"')).toEqual([
      { target: '/a?x=1,2;3', rel: ['next'], params: { title: 'one, two; three', rel: 'next' } },
    ]);
  });

  it('unescapes a quoted-pair', () => {
    expect(parseLinkHeader('</a>; title="say \\"hi\\""')[0]?.params.title).toBe('say "hi"');
  });

  it.each([
    ['a link without angle brackets', '/a; rel="next", </b>; rel="next"'],
    ['a parameter without a name', '</a>; ="x", </b>; rel="next"'],
    ['an unterminated target', '</b>; rel="next", <'],
  ])('skips %s and keeps the readable links', (_name, header) => {
    expect(parseLinkHeader(header).map((link) => link.target)).toEqual(['/b']);
  });
});

describe('findLink', () => {
  it.each([
    ['</a>; rel="prev", </b>; rel="next"', 'next', '/b'],
    ['</a>; rel="prev"', 'next', undefined],
    ['', 'next', undefined],
    [null, 'next', undefined],
  ])('finds in %j the %s link: %s', (header, rel, target) => {
    expect(findLink(header, rel)).toBe(target);
  });
});
