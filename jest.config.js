/** Unit and sandbox tests: the node's real code against the in-memory Lofty sandbox over loopback. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// Transpiled file by file (tsconfig.jest.json: isolatedModules); the types are checked once, over test/ too, by
	// `npm run typecheck` (tsc over tsconfig.dev.json, a step of .ci/run), not again in each worker.
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
	// Every test's timeout: test/harness/budgets.ts, set by test/harness/timeouts.ts.
	// Three workers on two cores: most suites wait on sandboxes, latencies and timers more than they compute (the
	// whole suite with 2 took 629 s in CI, the machine's load about 0.95; with 3, 453 s beside other jobs at load 4 to 8).
	maxWorkers: 3,
	// The secret scan: the harnesses and the console report to test/secrets/observe.ts, the reporter adds it all up.
	setupFilesAfterEnv: ['<rootDir>/test/secrets/watch.ts', '<rootDir>/test/harness/timeouts.ts'],
	// mustObserve: files that run the node through the harnesses, so a watch that saw nothing there is a broken watch.
	reporters: [
		'default',
		[
			'<rootDir>/test/secrets/reporter.js',
			{ mustObserve: ['test/node/', 'test/fuzz/operations', 'test/resilience/faults', 'test/trigger/lifecycle', 'test/trigger/payloads', 'test/trigger/endToEnd'] },
		],
		// Each file's run time into .build/durations-jest.json (`node scripts/slowest.js`, printed at the end of .ci/run).
		['<rootDir>/scripts/durations-reporter.js', { name: 'jest' }],
	],
};
