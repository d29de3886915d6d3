// `npm run changelog`: merges the changes between the latest release and openapi/ into
// CHANGELOG.md's Unreleased section, keeping every line an author wrote there, for the author to
// edit before `npm run release`.
import { contractLocations } from './pipeline/locations.ts';
import { mergeUnreleased, readChangelog, unreleasedText, withUnreleased, writeChangelog } from './release/changelog.ts';
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
const { body, added, covered } = mergeUnreleased(unreleasedText(changelog), entry);
await writeChangelog(locations, withUnreleased(changelog, body));
if (!entry) console.log(`CHANGELOG.md: no change since ${base.label}; the Unreleased section is as it was.`);
else {
  console.log(
    `CHANGELOG.md: merged the changes since ${base.label} into the Unreleased section, keeping what it said: ` +
      `${added.length} line(s) added${added.length > 0 ? ':' : '.'}`,
  );
  for (const line of added) console.log(`  ${line}`);
  if (covered.length > 0) {
    console.log('Left to your words, which name the same subject already (check they still say this):');
    for (const line of covered) console.log(`  ${line}`);
  }
  console.log('Edit it before npm run release.');
}
