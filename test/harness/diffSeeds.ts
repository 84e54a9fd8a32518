/**
 * The seeds the differential tests run: LOFTY_DIFF_SEEDS of them (default 25 in `npm test`, 200 in
 * `npm run test:diff`) from LOFTY_DIFF_SEED_FROM (default 1).
 */
export function diffSeeds(): number[] {
	const byHand = process.env.npm_lifecycle_event === 'test:diff';
	const count = Number(process.env.LOFTY_DIFF_SEEDS ?? (byHand ? 200 : 25));
	const from = Number(process.env.LOFTY_DIFF_SEED_FROM ?? 1);
	return Array.from({ length: count }, (_, i) => from + i);
}
