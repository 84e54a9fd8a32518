/**
 * End-to-end suite in a real n8n (`npm run test:e2e`): kept out of the default `npm test` (its files end in
 * .e2e.ts, which jest.config.js does not match). One n8n server per file, files one after the other.
 */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
	maxWorkers: 1,
	testTimeout: 600000,
	verbose: true,
	// The secret scan of the run: jest's own output and everything n8n wrote (log, database, event log) under .e2e/.
	reporters: ['default', ['<rootDir>/test/secrets/reporter.js', { scan: ['.e2e'] }], ['<rootDir>/scripts/durations-reporter.js', { name: 'e2e' }]],
};
