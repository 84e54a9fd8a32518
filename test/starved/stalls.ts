/**
 * jest setup file of `npm run test:starved`: the test process's event loop is blocked for 400 ms every 1.2 s, as
 * long GC pauses or a machine shared with other jobs do. The timers and the clock are node's own, taken before a test
 * can install jest's fake timers, so fake timers neither stop the stalls nor make them endless.
 */
import { setInterval as realSetInterval, clearInterval as realClearInterval } from 'timers';

const STALL_MS = Number(process.env.LOFTY_STALL_MS ?? 400);
const EVERY_MS = Number(process.env.LOFTY_STALL_EVERY_MS ?? 1200);

// The real clock, taken before a test can install fake timers (a faked Date.now would never reach the stall's end).
const realNow = Date.now.bind(Date);

function stall(): void {
	const until = realNow() + STALL_MS;
	while (realNow() < until) {
		// busy: nothing else in this process runs meanwhile
	}
}

const stalls = realSetInterval(stall, EVERY_MS);
stalls.unref();
afterAll(() => realClearInterval(stalls));
