#!/usr/bin/env node
/**
 * `npm run test:starved [-- jest args]`: runs jest with jest.starved.config.js (every test process blocks its event
 * loop 400 ms every 1.2 s) while two CPU-burning processes run beside it, as on a machine shared with other jobs.
 * `npm run test:e2e:starved -- <e2e files>` (`--e2e`): the end-to-end files (jest.e2e.config.js) beside the burners,
 * without stalls (the waits there are on n8n, in other processes). `LOFTY_BURNERS=n` sets the number of burners;
 * jest's exit code is this script's.
 */
'use strict';
const { spawn } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..');
const burners = Number(process.env.LOFTY_BURNERS ?? 2);
const children = [];
for (let i = 0; i < burners; i++) {
	children.push(spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }));
}
const stopBurners = () => {
	for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
};
process.on('exit', stopBurners);
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		stopBurners();
		process.exit(130);
	});
}

const e2e = process.argv[2] === '--e2e';
const args = process.argv.slice(e2e ? 3 : 2);
const started = Date.now();
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), '-c', e2e ? 'jest.e2e.config.js' : 'jest.starved.config.js', ...args], {
	cwd: root,
	stdio: 'inherit',
});
jest.on('exit', (code, signal) => {
	stopBurners();
	const how = e2e ? `test:e2e:starved: jest ${args.join(' ')}` : 'test:starved: jest';
	const stalls = e2e ? '' : ' and 400 ms stalls every 1.2 s';
	console.log(`${how} ${code === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s under ${burners} CPU burners${stalls}`);
	process.exit(code ?? (signal ? 1 : 0));
});
