// Contract versions (`MAJOR.MINOR.PATCH`, as `info.version` writes them) and the bump between two.

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export type Bump = 'major' | 'minor' | 'patch' | 'none';

const BUMP_ORDER: Bump[] = ['none', 'patch', 'minor', 'major'];

export function parseVersion(text: string): Version | undefined {
  const match = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/.exec(text);
  if (!match) return undefined;
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

export function formatVersion({ major, minor, patch }: Version): string {
  return `${major}.${minor}.${patch}`;
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** How `to` moves on from `from`; `none` also when it does not move forward at all. */
export function bumpBetween(from: Version, to: Version): Bump {
  if (compareVersions(to, from) <= 0) return 'none';
  if (to.major > from.major) return 'major';
  return to.minor > from.minor ? 'minor' : 'patch';
}

/** The version that follows `from` with `bump`: 1.0.0 and minor give 1.1.0. */
export function bumped(from: Version, bump: Bump): Version {
  switch (bump) {
    case 'major':
      return { major: from.major + 1, minor: 0, patch: 0 };
    case 'minor':
      return { ...from, minor: from.minor + 1, patch: 0 };
    case 'patch':
      return { ...from, patch: from.patch + 1 };
    case 'none':
      return from;
  }
}

export function largestBump(bumps: Iterable<Bump>): Bump {
  let largest: Bump = 'none';
  for (const bump of bumps) if (BUMP_ORDER.indexOf(bump) > BUMP_ORDER.indexOf(largest)) largest = bump;
  return largest;
}
