/**
 * jest setup file (setupFilesAfterEnv): the console goes to the secret watch too, and each test file's tally is
 * written when the file ends. The harnesses observe node outputs, errors and logs themselves.
 */
import { flushTally, observe } from './observe';

for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
	const original = console[method];
	console[method] = function (this: Console, ...args: unknown[]) {
		observe(`console.${method}`, args);
		original.apply(this, args);
	};
}

afterAll(() => flushTally(expect.getState().testPath ?? 'unknown'));
