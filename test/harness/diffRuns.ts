/**
 * How many generated cases the differential tests run, and how to replay one: `npm test` runs each property's default
 * (sized so that the deliberate breakages of issue 45 are caught on every run and the suite stays within its
 * budget), `npm run test:diff` 200, LOFTY_DIFF_RUNS any number. fast-check draws a new seed each run and prints it
 * with the path of the shrunk failure; LOFTY_DIFF_SEED and LOFTY_DIFF_PATH replay that case alone.
 */
import fc, { type Arbitrary, type Parameters } from 'fast-check';

const byHand = () => process.env.npm_lifecycle_event === 'test:diff' || process.env.LOFTY_DIFF_ALL === '1';

export function diffRuns(defaultRuns: number): number {
	if (process.env.LOFTY_DIFF_PATH) return 1;
	return Number(process.env.LOFTY_DIFF_RUNS ?? (byHand() ? 200 : defaultRuns));
}

export function propertyOptions<T>(runs: number): Parameters<T> {
	const seed = process.env.LOFTY_DIFF_SEED;
	const path = process.env.LOFTY_DIFF_PATH;
	return {
		numRuns: runs,
		...(seed !== undefined ? { seed: Number(seed) } : {}),
		...(path ? { path } : {}),
		verbose: 1,
	};
}

/** Each case takes a second or more: shrinking tries this many smaller cases at most (LOFTY_DIFF_SHRINKS), then prints the smallest failing one found. */
export const shrinkingBounded = <T>(arbitrary: Arbitrary<T>): Arbitrary<T> => fc.limitShrink(arbitrary, Number(process.env.LOFTY_DIFF_SHRINKS ?? 60));
