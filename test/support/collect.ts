/** Every item `items` yields, in order; fails once it yields more than `most` (a paging loop that never ends). */
export async function collect<T>(items: AsyncIterable<T>, most = Number.POSITIVE_INFINITY): Promise<T[]> {
  const collected: T[] = [];
  for await (const item of items) {
    collected.push(item);
    if (collected.length > most)
      throw new Error(`Still yielding after ${most} items: ${JSON.stringify(collected.slice(-3))}`);
  }
  return collected;
}
