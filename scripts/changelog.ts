// `npm run changelog`: writes CHANGELOG.md's Unreleased section from the changes between the
// latest release and openapi/, for the author to edit before `npm run release`. What a person wrote
// there is kept: the drafted lines it does not say yet are added to it, never put in its place.
import { contractLocations } from './pipeline/locations.ts';
import {
  mergedUnreleased,
  readChangelog,
  unreleasedText,
  withUnreleased,
  writeChangelog,
} from './release/changelog.ts';
import { entryFromChanges } from './release/changelog-entry.ts';
import { runGate } from './release/gate.ts';
import { readBase } from './release/releases.ts';
import { sortJudgements } from './release/report.ts';
import { buildWorkingContract } from './release/working.ts';

const locations = contractLocations();
const working = await buildWorkingContract(locations);
if (!working.ok) {
  console.error(`changelog: ${working.problem}`);
  process.exit(1);
}
const base = await readBase(locations);
const entry = entryFromChanges(sortJudgements(runGate(base.document, working.document).judgements), {
  base: base.document,
  working: working.document,
});
const changelog = await readChangelog(locations);
const written = unreleasedText(changelog);
const { text, added } = mergedUnreleased(written, entry);
await writeChangelog(locations, withUnreleased(changelog, text));
console.log(
  written === ''
    ? entry
      ? `CHANGELOG.md: wrote the Unreleased section from the changes since ${base.label}; edit it before npm run release.`
      : `CHANGELOG.md: no change since ${base.label}; the Unreleased section is empty.`
    : `CHANGELOG.md: wrote the Unreleased section, keeping what it said and adding ${added} line${added === 1 ? '' : 's'} from the changes since ${base.label} that it did not; edit it before npm run release.`,
);
