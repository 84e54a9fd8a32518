#!/usr/bin/env node
/**
 * `npm run test:starved [-- jest args]`: runs jest with jest.starved.config.js (every test process blocks its event
 * loop 400 ms every 1.2 s) while CPU-burning processes run beside it, as on a machine shared with other jobs: six by
 * default (three per core of a 2-core machine, issue 45; two beside the e2e files). Every test's timeout is three times its budget
 * (LOFTY_TIMEOUT_FACTOR=3, test/harness/budgets.ts). `npm run test:e2e:starved -- <e2e files>` (`--e2e`): the
 * end-to-end files (jest.e2e.config.js) beside the burners, without stalls (the waits there are on n8n, in other
 * processes). `--burners n` or `LOFTY_BURNERS=n` sets the number of burners; jest's exit code is this script's.
 */
'use strict';
const { spawn } = require('child_process');
const path = require('path');

const root = path.resolve(__dirname, '..');
const argv = process.argv.slice(2);
const flag = argv.indexOf('--burners');
const given = flag >= 0 ? argv.splice(flag, 2)[1] : process.env.LOFTY_BURNERS;
const burners = Number(given ?? (argv[0] === '--e2e' ? 2 : 6));
if (!Number.isInteger(burners) || burners < 0) throw new Error('--burners (or LOFTY_BURNERS) must be a whole number');
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

const e2e = argv[0] === '--e2e';
const args = argv.slice(e2e ? 1 : 0);
const started = Date.now();
const jest = spawn(process.execPath, [require.resolve('jest/bin/jest'), '-c', e2e ? 'jest.e2e.config.js' : 'jest.starved.config.js', ...args], {
	cwd: root,
	stdio: 'inherit',
	env: { ...process.env, LOFTY_TIMEOUT_FACTOR: process.env.LOFTY_TIMEOUT_FACTOR ?? (e2e ? '1' : '3') },
});
jest.on('exit', (code, signal) => {
	stopBurners();
	const how = e2e ? `test:e2e:starved: jest ${args.join(' ')}` : 'test:starved: jest';
	const stalls = e2e ? '' : ' and 400 ms stalls every 1.2 s';
	console.log(`${how} ${code === 0 ? 'passed' : 'failed'} in ${Math.round((Date.now() - started) / 1000)} s under ${burners} CPU burners${stalls}`);
	process.exit(code ?? (signal ? 1 : 0));
});
