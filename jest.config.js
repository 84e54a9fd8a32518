/** Unit and sandbox tests: the node's real code against the in-memory Lofty sandbox over loopback. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: { warnOnly: false } }] },
	testTimeout: 30000,
};
