import type { Clock } from '../../core/clock.ts';

/** A clock that moves only when a test moves it. */
export class FakeClock implements Clock {
  constructor(private current = Date.parse('2026-11-22T10:00:00Z')) {}

  now(): number {
    return this.current;
  }

  set(iso: string | number): void {
    this.current = typeof iso === 'number' ? iso : Date.parse(iso);
  }

  advance(ms: number): void {
    this.current += ms;
  }
}
