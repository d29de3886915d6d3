import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { derivePetNamePattern, followsNameRule } from '../../../scripts/patterns/pet-name.ts';
import { REPOSITORY_ROOT } from '../../../support/repository-copy.ts';

const contract = JSON.parse(readFileSync(path.join(REPOSITORY_ROOT, 'generated/openapi.json'), 'utf8'));
const pattern = derivePetNamePattern();

/** Every character alone, twice, after a letter and after an invisible one: what the rule decides on. */
function* probes(): Generator<string> {
  for (let codePoint = 0; codePoint <= 0x10ffff; codePoint++) {
    if (codePoint >= 0xd800 && codePoint <= 0xdfff) continue;
    const character = String.fromCodePoint(codePoint);
    yield* [character, character + character, `a${character}`, `\u200B${character}`];
  }
}

describe('derivePetNamePattern', () => {
  it('is the pattern PetName has in the contract (run it with --write after a change to the rule)', () => {
    expect(contract.components.schemas.PetName.pattern).toBe(pattern);
  });

  it.each([
    ['with the u flag', 'u'],
    ['without it', ''],
  ])('accepts exactly the names of the rule, %s', (_, flags) => {
    const compiled = new RegExp(pattern, flags);
    const differ: string[] = [];
    for (const name of probes()) {
      if (compiled.test(name) !== followsNameRule(name) && differ.length < 10) differ.push(name);
    }
    expect(differ).toEqual([]);
  });
});
