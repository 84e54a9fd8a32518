/**
 * Shared by the pacer's tests on jest's fake clock (pacingLatency.test.ts, test/unit/pacingWindow.test.ts):
 * acquisitions watched as they are granted, the clock advanced, and the rate-limit headers of an answer.
 */
import { acquire } from '../../nodes/Lofty/transport/pacing';

/** Where jest's clock starts in each test (useFakeTimers({ now: START })). */
export const START = 1_800_000_000_000;

type Ticket = Awaited<ReturnType<typeof acquire>>;

/** Starts an acquisition and reports whether it has been granted so far, with its ticket. */
export function pending(key = 'k') {
	const state = { granted: false, ticket: undefined as undefined | Ticket };
	void acquire(key).then((ticket) => {
		state.granted = true;
		state.ticket = ticket;
	});
	return state;
}

export const granted = (all: Array<{ granted: boolean }>) => all.filter((o) => o.granted).length;
export const flush = async (ms = 0) => await jest.advanceTimersByTimeAsync(ms);
/** An answer's headers: `remaining` left in a window ending `inSeconds` after START. */
export const window = (remaining: number, inSeconds: number, limit?: number) => ({
	...(limit === undefined ? {} : { 'X-RateLimit-Limit': String(limit) }),
	'X-RateLimit-Remaining': String(remaining),
	'X-RateLimit-Reset': String(START / 1000 + inSeconds),
});
