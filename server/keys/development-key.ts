import type { KeyStore } from '../../core/keys/key-store.ts';

const DEVELOPMENT_KEY_LABEL = 'development (created at start-up)';

/**
 * Lets a fresh local server be tried at once: when the store holds no key at all (not even a
 * revoked one), creates a free-plan key and shows it with `show`, the only time it is ever shown;
 * `print` says where.
 */
export async function ensureDevelopmentKey(
  keyStore: KeyStore,
  print: (line: string) => void,
  show: (line: string) => void,
): Promise<void> {
  if ((await keyStore.count()) > 0) return;
  const { secret } = await keyStore.create({ plan: 'free', label: DEVELOPMENT_KEY_LABEL });
  print('No API key existed, so a free-plan key was created for development; it is shown once, on stderr.');
  show('The development key (free plan), shown only now; store it:');
  show(secret);
}
