/**
 * Sandbox time for webhook delivery. The clock *is* the store's clock (`store.now`, used for record
 * times, so a manual log becomes readable and a delivery falls due on one time line): it wraps
 * `store.now` with an offset that tests move forward with `advance(ms)` or `set(epochMs)`, so retry
 * delays of hours and the 48-hour expiry can be checked without waiting. When a test has replaced
 * `store.now` with its own function, the clock wraps that one on the next advance.
 */
import type { Store } from '../../../core/store';

const BASE = Symbol('deliveryClockBase');
type Wrapped = (() => number) & { [BASE]?: () => number };

export class DeliveryClock {
	private offset = 0;
	private base: () => number = () => Date.now();
	private wrapper: Wrapped = () => this.base() + this.offset;

	constructor(private readonly store: Store) {
		this.install();
	}

	private install(): void {
		const current = this.store.now as Wrapped;
		this.base = current[BASE] ?? current;
		this.offset = 0;
		const wrapper: Wrapped = () => this.base() + this.offset;
		wrapper[BASE] = this.base;
		this.wrapper = wrapper;
		this.store.now = wrapper;
	}

	now(): number {
		return this.store.now();
	}

	/** Move sandbox time forward (negative values are refused). */
	advance(ms: number): void {
		if (!(ms >= 0)) throw new Error(`DeliveryClock.advance: ${ms} is not a non-negative number of milliseconds`);
		if (this.store.now !== this.wrapper) this.install();
		this.offset += ms;
	}

	/** Move sandbox time to an absolute moment (never backwards). */
	set(epochMs: number): void {
		const delta = epochMs - this.now();
		if (delta > 0) this.advance(delta);
	}
}
