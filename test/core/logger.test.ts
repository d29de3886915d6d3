import { describe, expect, it } from 'vitest';
import { createLogger, LOG_LEVELS, type LogLevel } from '../../core/logger.ts';

/** A logger at `level` and the lines it wrote, each parsed. */
function capture(level: LogLevel) {
  const lines: string[] = [];
  const logger = createLogger(level, (line) => lines.push(line));
  return { logger, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('createLogger', () => {
  it('writes one JSON object per line: the time, the level, then the fields as given', () => {
    const { logger, lines, parsed } = capture('debug');
    const before = Date.now();
    logger.info({ event: 'stopped', status: 200, nested: { a: [1, 'two'] }, quote: 'say "hi"\n' });
    const after = Date.now();

    expect(lines).toHaveLength(1);
    expect(lines[0]?.endsWith('}\n')).toBe(true);
    expect(lines[0]?.slice(0, -1)).not.toContain('\n');
    const [line] = parsed();
    expect(Object.keys(line ?? {})).toEqual(['time', 'level', 'event', 'status', 'nested', 'quote']);
    expect(line).toMatchObject({
      level: 'info',
      event: 'stopped',
      status: 200,
      nested: { a: [1, 'two'] },
      quote: 'say "hi"\n',
    });
    const time = Date.parse(String(line?.time));
    expect(new Date(time).toISOString()).toBe(line?.time);
    expect(time).toBeGreaterThanOrEqual(before);
    expect(time).toBeLessThanOrEqual(after);
  });

  it('writes a line with no fields as the time and the level alone', () => {
    const { logger, parsed } = capture('debug');
    logger.warn({});
    expect(Object.keys(parsed()[0] ?? {})).toEqual(['time', 'level']);
  });

  it('leaves out fields whose value is undefined', () => {
    const { logger, parsed } = capture('debug');
    logger.info({ keyId: undefined, path: '/v1/pets' });
    expect(parsed()[0]).not.toHaveProperty('keyId');
  });

  it('redacts anything shaped like an API key, wherever it is in the line', () => {
    const { logger, lines } = capture('debug');
    const key = `ask_${'A'.repeat(43)}`;
    logger.error({ path: `/v1/pets/${key}`, message: `Bearer ${key} was refused` });
    expect(lines[0]).not.toContain(key);
    expect(lines[0]).toContain('ask_[redacted]');
  });

  it('leaves text that only starts like a key as it is', () => {
    const { logger, parsed } = capture('debug');
    logger.info({ message: 'ask_ and ask_short are no keys' });
    expect(parsed()[0]?.message).toBe('ask_ and ask_short are no keys');
  });

  it.for(LOG_LEVELS.filter((level) => level !== 'silent'))(
    'at %s, writes that level and those above it only',
    (level) => {
      const { logger, parsed } = capture(level);
      for (const name of ['debug', 'info', 'warn', 'error'] as const) logger[name]({ name });
      const written = LOG_LEVELS.slice(LOG_LEVELS.indexOf(level)).filter((name) => name !== 'silent');
      expect(parsed().map((line) => line.level)).toEqual(written);
    },
  );

  it('writes nothing when silent', () => {
    const { logger, lines } = capture('silent');
    for (const name of ['debug', 'info', 'warn', 'error'] as const) logger[name]({ name });
    expect(lines).toEqual([]);
  });
});
