#!/usr/bin/env node
/**
 * `node scripts/slowest.js [count]`: the slowest test files of the last jest and e2e runs, from the files
 * scripts/durations-reporter.js wrote under .build/ (10 by default, over both runs).
 */
'use strict';
const fs = require('fs');
const path = require('path');

const count = Number(process.argv[2] ?? 10);
const dir = path.join(__dirname, '..', '.build');
const rows = [];
const names = fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => /^durations-.+\.json$/.test(f)).sort() : [];
for (const base of names) {
	const name = base.slice('durations-'.length, -'.json'.length);
	const file = path.join(dir, base);
	for (const row of JSON.parse(fs.readFileSync(file, 'utf8'))) rows.push({ ...row, run: name });
}
rows.sort((a, b) => b.seconds - a.seconds);
if (rows.length === 0) {
	console.log('slowest test files: no durations recorded (.build/durations-*.json)');
} else {
	console.log(`slowest ${Math.min(count, rows.length)} of ${rows.length} test files:`);
	for (const r of rows.slice(0, count)) console.log(`${String(r.seconds.toFixed(1)).padStart(7)} s  ${r.run.padEnd(9)}  ${r.file}${r.failed ? '  (failed)' : ''}`);
}
