#!/usr/bin/env node
/**
 * `npm run test:ops`: what a new operation still lacks, from what the node tests really sent.
 * - Every operation of the resource tables was sent to the sandbox by at least one node test (test/node/) and
 *   answered 2xx there, read from the requests the tests recorded (.build/ops/, test/harness/opsLog.ts). An
 *   operation whose sandbox route is missing or renamed is answered 404 and fails this.
 * - Every operation added since `main` (rows added to docs/operations.md) is named in CHANGELOG.md's Unreleased
 *   section as "Resource > Operation".
 * With `--run [jest args]` it first runs the node tests (`jest test/node`); without, it checks the last run's
 * records (CI runs it after the test step).
 */
'use strict';
const fs = require('fs');
const path = require('path');
const { execFileSync, spawnSync } = require('child_process');

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

/** A table path as a pattern of an actual path; the more literal segments, the more specific. */
function route(method, template) {
	const segments = template.split('/');
	const pattern = new RegExp(`^${segments.map((s) => (/^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`);
	return { method, pattern, literal: segments.filter((s) => !/^\{\w+\}$/.test(s)).length };
}

const operations = RESOURCES.flatMap((r) => r.operations.map((op) => ({ title: `${r.name} > ${op.name}`, resource: r.value, ...route(op.method, op.path), path: op.path, statuses: new Set(), files: new Set() })));
/** A path that is one described placeholder (Webhook > Get Event Record: `/{the record of the event}`) is read through
 *  other operations' routes: it counts as sent by its resource's node tests (test/node/<resource>*.test.ts) with its method. */
const throughOthers = (op) => /^\/\{[^}]*\s[^}]*\}$/.test(op.path);

const records = fs.existsSync(opsDir) ? fs.readdirSync(opsDir).filter((f) => f.endsWith('.json')).map((f) => JSON.parse(fs.readFileSync(path.join(opsDir, f), 'utf8'))) : [];
const nodeRecords = records.filter((r) => r.file.split(path.sep).join('/').startsWith('test/node/'));
if (nodeRecords.length === 0) {
	console.error('test:ops: no requests recorded by node tests under .build/ops/: run `npm run test:ops` (it runs them first)');
	process.exit(1);
}
for (const { file, requests } of nodeRecords) {
	for (const { method, path: sent, status } of requests) {
		const matching = operations.filter((op) => op.method === method && op.pattern.test(sent));
		const most = Math.max(...matching.map((op) => op.literal));
		const ofFile = operations.filter((op) => throughOthers(op) && op.method === method && path.basename(file).startsWith(op.resource));
		for (const op of [...matching.filter((o) => o.literal === most), ...ofFile]) {
			op.statuses.add(status);
			op.files.add(file);
		}
	}
}

const problems = [];
for (const op of operations) {
	const answered = [...op.statuses].some((s) => s >= 200 && s < 300);
	if (op.statuses.size === 0) problems.push(`${op.title} (${op.method} ${op.path}): no node test sent it; test it in test/node/<resource>.test.ts`);
	else if (!answered) problems.push(`${op.title} (${op.method} ${op.path}): never answered 2xx (got ${[...op.statuses].sort().join(', ')}); is its sandbox route in sandbox/resources/<resource>/routes.ts, under this method and path?`);
}

// Operations added since the base (rows added to the generated table) need a CHANGELOG line.
function addedSinceBase() {
	const base = process.env.LOFTY_OPS_BASE ?? 'main';
	try {
		execFileSync('git', ['rev-parse', '--verify', '--quiet', base], { cwd: root, stdio: 'ignore' });
		const diff = execFileSync('git', ['diff', '--unified=0', `${base}...HEAD`, '--', 'docs/operations.md'], { cwd: root, encoding: 'utf8' });
		const uncommitted = execFileSync('git', ['diff', '--unified=0', 'HEAD', '--', 'docs/operations.md'], { cwd: root, encoding: 'utf8' });
		const rows = (text, sign) => [...text.matchAll(new RegExp(`^\\${sign}\\| ([^|]+) \\| ([^|]+) \\|`, 'gm'))].map((m) => `${m[1]} > ${m[2]}`);
		const removed = new Set([...rows(diff, '-'), ...rows(uncommitted, '-')]);
		return { base, added: [...new Set([...rows(diff, '+'), ...rows(uncommitted, '+')])].filter((t) => !removed.has(t) && t !== 'Resource > Operation') };
	} catch {
		return { base, added: undefined };
	}
}
const { base, added } = addedSinceBase();
const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
const unreleased = (/^## Unreleased\n([\s\S]*?)(?=^## )/m.exec(changelog) ?? /^## Unreleased\n([\s\S]*)/m.exec(changelog) ?? ['', ''])[1];
if (added === undefined) console.log(`test:ops: no git history against ${base}: the CHANGELOG check is skipped`);
else for (const title of added) if (!unreleased.includes(title)) problems.push(`${title}: new since ${base}, but CHANGELOG.md's Unreleased section does not name it ("${title}")`);

const covered = operations.filter((op) => [...op.statuses].some((s) => s >= 200 && s < 300)).length;
console.log(`test:ops: ${covered} of ${operations.length} operations of ${RESOURCES.filter((r) => r.operations.length).length} resources sent by node tests and answered 2xx (${nodeRecords.length} node test files recorded)`);
if (problems.length) {
	console.error(`test:ops: ${problems.length} problem(s):\n${problems.map((p) => `  - ${p}`).join('\n')}`);
	process.exit(1);
}
console.log('test:ops: passed');
