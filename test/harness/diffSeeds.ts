/**
 * The seeds the differential tests run: LOFTY_DIFF_SEEDS of them (default 25 in `npm test`, 200 in
 * `npm run test:diff`) from LOFTY_DIFF_SEED_FROM (default 1).
 */
const byHand = () => process.env.npm_lifecycle_event === 'test:diff' || process.env.LOFTY_DIFF_ALL === '1';

export function diffSeeds(): number[] {
	const count = Number(process.env.LOFTY_DIFF_SEEDS ?? (byHand() ? 200 : 25));
	const from = Number(process.env.LOFTY_DIFF_SEED_FROM ?? 1);
	return Array.from({ length: count }, (_, i) => from + i);
}

/**
 * Whether a seed runs the resource at `index` (differential.test.ts): in `npm test` each seed runs every third
 * resource (each resource at 8 or 9 of the 25 seeds), so the suite stays fast; `npm run test:diff`, LOFTY_DIFF_ALL=1
 * or a single seed (LOFTY_DIFF_SEEDS=1) run every resource at every seed.
 */
export function runsResource(seed: number, index: number): boolean {
	return byHand() || process.env.LOFTY_DIFF_SEEDS === '1' || index % 3 === seed % 3;
}
