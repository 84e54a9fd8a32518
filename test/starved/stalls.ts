/**
 * jest setup file of `npm run test:starved`: the test process's event loop is blocked for 400 ms every 1.2 s, as
 * long GC pauses or a machine shared with other jobs do. The timers are node's own (`timers`), so a test that
 * installs jest's fake timers does not stop the stalls.
 */
import { setInterval as realSetInterval, clearInterval as realClearInterval } from 'timers';

const STALL_MS = Number(process.env.LOFTY_STALL_MS ?? 400);
const EVERY_MS = Number(process.env.LOFTY_STALL_EVERY_MS ?? 1200);

function stall(): void {
	const until = Date.now() + STALL_MS;
	while (Date.now() < until) {
		// busy: nothing else in this process runs meanwhile
	}
}

const stalls = realSetInterval(stall, EVERY_MS);
stalls.unref();
afterAll(() => realClearInterval(stalls));
