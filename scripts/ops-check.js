#!/usr/bin/env node
/**
 * `npm run test:ops`: what a new operation still lacks, from what the node tests really sent.
 * - Every operation of the resource tables was sent to the sandbox by at least one node test (test/node/) and
 *   answered 2xx there, read from the requests the tests recorded (.build/ops/, test/harness/opsLog.ts). An
 *   operation whose sandbox route is missing or renamed is answered 404 and fails this. An operation whose path
 *   the values decide (Webhook > Get Event Record) lists the paths it may read in its `routes`: each one counts.
 * - Every operation of the tables that `main`'s docs/operations.md lacks (LOFTY_OPS_BASE names another base) is
 *   named in CHANGELOG.md's Unreleased section as "Resource > Operation".
 * The checks themselves are scripts/ops-coverage.js.
 * With `--run [jest args]` it first runs the node tests (`jest test/node`); without, it checks the last run's
 * records (CI runs it after the test step).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

const { changelogProblems, sentProblems } = require('./ops-coverage');

const root = path.resolve(__dirname, '..');
const opsDir = path.join(root, '.build', 'ops');
const args = process.argv.slice(2);

if (args[0] === '--run') {
	fs.rmSync(opsDir, { recursive: true, force: true });
	const jest = spawnSync(process.execPath, [require.resolve('jest/bin/jest'), 'test/node', ...args.slice(1)], { cwd: root, stdio: 'inherit' });
	if (jest.status !== 0) console.log('test:ops: some node tests failed; checking what they sent anyway');
}

execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'tsconfig.dev.json'], { cwd: root, stdio: 'inherit' });
const { RESOURCES } = require(path.join(root, '.build/nodes/Lofty/resources'));

const records = fs.existsSync(opsDir) ? fs.readdirSync(opsDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(opsDir, f), 'utf8'))) : [];
const nodeRecords = records.filter((r) => r.file.split(path.sep).join('/').startsWith('test/node/'));
if (nodeRecords.length === 0) {
	console.error('test:ops: no requests recorded by node tests under .build/ops/: run `npm run test:ops` (it runs them first)');
	process.exit(1);
}
const { problems, covered, total } = sentProblems(RESOURCES, nodeRecords);

// Operations the base's docs/operations.md lacks need a CHANGELOG line.
// A clone has `main`; CI's checkout (fetch-depth 0) has `origin/main`.
const bases = process.env.LOFTY_OPS_BASE ? [process.env.LOFTY_OPS_BASE] : ['main', 'origin/main'];
let base;
let baseOperations;
for (const candidate of bases) {
	try {
		baseOperations = execFileSync('git', ['show', `${candidate}:docs/operations.md`], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
		base = candidate;
		break;
	} catch {
		// not in this clone: the next candidate
	}
}
if (baseOperations === undefined) console.log(`test:ops: no docs/operations.md in ${bases.join(' or ')} (no git history?): the CHANGELOG check is skipped`);
if (baseOperations !== undefined) {
	problems.push(...changelogProblems(RESOURCES, baseOperations, fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8'), base));
}

console.log(`test:ops: ${covered} of ${total} operations of ${RESOURCES.filter((r) => r.operations.length).length} resources sent by node tests and answered 2xx (${nodeRecords.length} node test files recorded)`);
if (problems.length) {
	console.error(`test:ops: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
	process.exit(1);
}
console.log('test:ops: passed');
