import { describe, expect, it } from 'vitest';
import { mergeUnreleased } from '../../../scripts/release/changelog.ts';

const CURATED = `### Added

- Idempotent creates: \`POST /pets\` and \`POST /store/orders\` take an optional
  \`Idempotency-Key\` header, written by a person over three lines.

### Changed

- \`503 service_unavailable\` says what can have happened.`;

describe('npm run changelog: merging the drafted entry into the Unreleased section', () => {
  it('keeps every line an author wrote and adds each drafted line under its heading', () => {
    const drafted = `### Added

- \`NewPet.nickname\`: new optional field, in \`POST /pets\`.

### Changed

- \`Pet.name\`: \`maxLength\` from 100 to 120.`;
    const { body, added, covered } = mergeUnreleased(CURATED, drafted);

    for (const line of CURATED.split('\n')) expect(body).toContain(line);
    expect(added).toEqual([
      '- `NewPet.nickname`: new optional field, in `POST /pets`.',
      '- `Pet.name`: `maxLength` from 100 to 120.',
    ]);
    expect(covered).toEqual([]);
    expect(body).toBe(`### Added

- Idempotent creates: \`POST /pets\` and \`POST /store/orders\` take an optional
  \`Idempotency-Key\` header, written by a person over three lines.
- \`NewPet.nickname\`: new optional field, in \`POST /pets\`.

### Changed

- \`503 service_unavailable\` says what can have happened.
- \`Pet.name\`: \`maxLength\` from 100 to 120.`);
  });

  it('leaves a drafted line to the author when their text already names its subject, and reports it', () => {
    const drafted = '### Added\n\n- `POST /pets`: new optional `Idempotency-Key` header (experimental).';
    const { body, added, covered } = mergeUnreleased(CURATED, drafted);

    expect(body).toBe(CURATED);
    expect(added).toEqual([]);
    expect(covered).toEqual(['- `POST /pets`: new optional `Idempotency-Key` header (experimental).']);
  });

  it('adds a missing heading in Keep a Changelog order, and changes nothing when run twice', () => {
    const drafted =
      '### Deprecated\n\n- `GET /pets`: deprecated.\n\n### Added\n\n- `GET /widgets`: list widgets (experimental).';
    const once = mergeUnreleased(CURATED, drafted).body;
    const twice = mergeUnreleased(once, drafted);

    expect(once.indexOf('### Added')).toBeLessThan(once.indexOf('### Changed'));
    expect(once.indexOf('### Changed')).toBeLessThan(once.indexOf('### Deprecated'));
    expect(once).toContain('### Deprecated\n\n- `GET /pets`: deprecated.');
    expect(twice).toEqual({ body: once, added: [], covered: [] });
  });

  it('writes the drafted entry whole into an empty section', () => {
    const drafted = '### Added\n\n- `GET /widgets`: list widgets (experimental).';
    expect(mergeUnreleased('', drafted).body).toBe(drafted);
  });
});
