/**
 * `npm run test:starved`: the jest suite as a starved machine runs it. Every test process stalls its event loop
 * (test/starved/stalls.ts) while scripts/starved.js keeps two CPU-burning processes beside it.
 */
const base = require('./jest.config.js');

module.exports = {
	...base,
	setupFilesAfterEnv: [...base.setupFilesAfterEnv, '<rootDir>/test/starved/stalls.ts'],
};
