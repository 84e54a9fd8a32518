/**
 * pass^k as τ²-bench reports it: the chance that all of k trials of a task succeed, estimated without bias from n ≥ k
 * trials with c successes as C(c, k) / C(n, k), averaged over tasks. The interval of a group is a 95 % percentile
 * bootstrap over its tasks (2,000 resamples, a fixed seed: the same runs give the same interval).
 */
import { rng } from '../../sandbox/core/seed';

export function choose(n: number, k: number): number {
	if (k < 0 || k > n) return 0;
	let r = 1;
	for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
	return r;
}

/** The unbiased estimate of pass^k for one task from its trials' rewards. */
export function passK(rewards: number[], k: number): number {
	const n = rewards.length;
	if (k > n) throw new Error(`pass^${k} needs at least ${k} trials, got ${n}`);
	const c = rewards.filter((r) => r === 1).length;
	return choose(c, k) / choose(n, k);
}

export const mean = (xs: number[]): number => (xs.length === 0 ? 0 : xs.reduce((a, b) => a + b, 0) / xs.length);

/** A 95 % percentile-bootstrap interval of the mean of per-task values. */
export function interval(values: number[], resamples = 2000, seed = 48): [number, number] {
	if (values.length === 0) return [0, 0];
	const r = rng(seed);
	const means: number[] = [];
	for (let i = 0; i < resamples; i++) {
		let sum = 0;
		for (let j = 0; j < values.length; j++) sum += values[Math.floor(r() * values.length)];
		means.push(sum / values.length);
	}
	means.sort((a, b) => a - b);
	return [means[Math.floor(0.025 * (resamples - 1))], means[Math.ceil(0.975 * (resamples - 1))]];
}

export interface GroupRow {
	group: string;
	tasks: number;
	passAt1: number;
	passAtK: number;
	k: number;
	ci1: [number, number];
	ciK: [number, number];
}

/** pass^1 and pass^k by group (and "all"), from each task's rewards. */
export function byGroup(results: Array<{ group: string; rewards: number[] }>, k: number): GroupRow[] {
	const groups = [...new Set(results.map((r) => r.group)), 'all'];
	return groups.map((group) => {
		const rows = results.filter((r) => group === 'all' || r.group === group);
		const p1 = rows.map((r) => passK(r.rewards, 1));
		const pk = rows.map((r) => passK(r.rewards, Math.min(k, r.rewards.length)));
		return { group, tasks: rows.length, passAt1: mean(p1), passAtK: mean(pk), k, ci1: interval(p1), ciK: interval(pk) };
	});
}
