// Bounded concurrency: at most `width` calls of fn in flight, items taken in order.
export async function pool<T>(items: readonly T[], width: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      await fn(items[i], i)
    }
  }
  await Promise.all(Array.from({length: Math.max(0, Math.min(width, items.length))}, worker))
}
