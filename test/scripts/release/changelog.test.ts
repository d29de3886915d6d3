import { describe, expect, it } from 'vitest';
import { mergedUnreleased } from '../../../scripts/release/changelog.ts';

const WRITTEN = `### Added

- Idempotent creates: \`POST /pets\` takes an optional
  \`Idempotency-Key\` header, written by a person.

### Changed

- \`PetName\`: the pattern is written in a portable subset.`;

describe('mergedUnreleased: npm run changelog on an Unreleased section a person wrote', () => {
  it('keeps every line written, in its order, and adds a drafted line to the end of its section', () => {
    const draft = '### Added\n\n- `PATCH /pets/{petId}`: change an animal (experimental).';
    const { text, added } = mergedUnreleased(WRITTEN, draft);
    expect(added).toBe(1);
    expect(text).toBe(
      WRITTEN.replace(
        'written by a person.\n',
        'written by a person.\n- `PATCH /pets/{petId}`: change an animal (experimental).\n',
      ),
    );
  });

  it('adds a section the written text lacks at the end', () => {
    const { text } = mergedUnreleased(WRITTEN, '### Deprecated\n\n- `GET /pets/{petId}`.');
    expect(text).toBe(`${WRITTEN}\n\n### Deprecated\n\n- \`GET /pets/{petId}\`.`);
  });

  it('adds nothing the written text says already, however its lines are broken', () => {
    const draft =
      '### Added\n\n- Idempotent creates: `POST /pets` takes an optional `Idempotency-Key` header, written\n  by a person.';
    expect(mergedUnreleased(WRITTEN, draft)).toEqual({ text: WRITTEN, added: 0 });
  });

  it('writes the draft into an empty section, and keeps a written one when nothing changed', () => {
    expect(mergedUnreleased('', '### Added\n\n- One.')).toEqual({ text: '### Added\n\n- One.', added: 1 });
    expect(mergedUnreleased(WRITTEN, '')).toEqual({ text: WRITTEN, added: 0 });
  });
});
