#!/usr/bin/env node
/**
 * `npm run test:starved [-- jest args]`: runs jest with jest.starved.config.js (every test process blocks its event
 * loop 400 ms every 1.2 s) while two CPU-burning processes run beside it, as on a machine shared with other jobs.
 * `LOFTY_BURNERS=n` sets the number of burners; jest's exit code is this script's.
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

const started = Date.now();
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), '-c', 'jest.starved.config.js', ...process.argv.slice(2)], {
	cwd: root,
	stdio: 'inherit',
});
jest.on('exit', (code, signal) => {
	stopBurners();
	console.log(`test:starved: jest ${code === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s under ${burners} CPU burners and 400 ms stalls every 1.2 s`);
	process.exit(code ?? (signal ? 1 : 0));
});
