#!/usr/bin/env node
/**
 * `node scripts/e2e-lanes.js [jest options]`: the e2e suite in two jest processes side by side (.ci/run's e2e step).
 *
 *   lane "polls": the files that spend their time waiting for n8n's minute ticks, one n8n each scenario, little CPU
 *                 between ticks, and the editor check (the longest of the others), one after the other, so that
 *                 the lanes take about as long (LANE_FILES below);
 *   lane "rest":  every other e2e file, one after the other, as `npm run test:e2e` runs them.
 *
 * Each e2e file already has its own folder under .e2e/, its own sandbox and free ports, so the lanes share nothing
 * but the machine. The polls lane's lines are printed prefixed with "[polls] "; each lane writes its own durations
 * file (.build/durations-e2e-<lane>.json, read by scripts/slowest.js) and runs its own secret scan.
 * Exit 0 when both lanes pass; otherwise 1, after both have ended.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { spawn } = require('child_process');

const ROOT = path.join(__dirname, '..');
const LANE_FILES = ['test/e2e/polling.e2e.ts', 'test/e2e/editor.e2e.ts'];
/** Every e2e file jest.e2e.config.js runs (test/e2e/**\/*.e2e.ts), not in LANE_FILES: named one by one, by path. */
function restFiles(dir = 'test/e2e') {
	return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
		const file = `${dir}/${entry.name}`;
		if (entry.isDirectory()) return restFiles(file);
		return entry.name.endsWith('.e2e.ts') && !LANE_FILES.includes(file) ? [file] : [];
	});
}
const extra = process.argv.slice(2);
const jestBin = require.resolve('jest/bin/jest');

function lane(name, args, prefix) {
	return new Promise((resolve) => {
		const child = spawn(process.execPath, [jestBin, '-c', 'jest.e2e.config.js', ...args, ...extra], {
			cwd: ROOT,
			env: { ...process.env, LOFTY_DURATIONS_NAME: `e2e-${name}` },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		for (const [from, to] of [
			[child.stdout, process.stdout],
			[child.stderr, process.stderr],
		]) {
			let rest = '';
			from.on('data', (chunk) => {
				const lines = (rest + chunk.toString()).split('\n');
				rest = lines.pop();
				for (const line of lines) to.write(`${prefix}${line}\n`);
			});
			from.on('end', () => {
				if (rest) to.write(`${prefix}${rest}\n`);
			});
		}
		child.on('close', (code, signal) => {
			const ok = code === 0;
			process.stdout.write(`\n::: e2e lane ${name}: ${ok ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`}\n`);
			resolve(ok);
		});
	});
}

(async () => {
	const results = await Promise.all([
		lane('polls', ['--runTestsByPath', ...LANE_FILES], '[polls] '),
		lane('rest', ['--runTestsByPath', ...restFiles()], ''),
	]);
	process.exit(results.every(Boolean) ? 0 : 1);
})();
