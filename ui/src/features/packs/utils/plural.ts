/** plural counts a thing in words: "1 pack", "3 packs". */
export function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}
