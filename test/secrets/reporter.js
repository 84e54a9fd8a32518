/**
 * jest reporter: the secret scan of a whole run. It searches, for the shapes of every sandbox secret
 * (scripts/secret-scan.js):
 *   - what jest shows: test names, failure messages and the console of every test file;
 *   - the tallies the harnesses wrote (test/secrets/observe.ts): every node output, error and log line of the run;
 *   - with `scan: [dirs]`, every file under those folders (the e2e run: n8n's log, database and event log).
 * Any hit fails the run (jest exits 1) and is printed masked. A watch that saw nothing fails too: with
 * `mustObserve: [prefixes]`, every test file under those folders must have handed over node output.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { findSecrets, scanFiles, formatHits } = require('../../scripts/secret-scan');

const TALLY_DIR = '.test-output/secret-scan';

class SecretScanReporter {
	constructor(globalConfig, options = {}) {
		this.root = globalConfig.rootDir;
		this.options = options;
		// One folder per run, so that two jest runs at once do not mix their tallies; jest starts its workers after
		// the reporters, so they inherit the variable.
		this.runId = `${process.pid}-${Date.now()}`;
		process.env.LOFTY_SECRET_SCAN_RUN = this.runId;
		this.tallyDir = path.join(this.root, TALLY_DIR, this.runId);
		this.hits = [];
		this.jestTexts = 0;
		this.jestBytes = 0;
		this.ranFiles = [];
		this.error = undefined;
	}

	onRunStart() {
		fs.rmSync(this.tallyDir, { recursive: true, force: true });
	}

	onTestFileResult(_test, result) {
		const where = `${path.relative(this.root, result.testFilePath)} (jest output)`;
		const texts = [
			result.failureMessage ?? '',
			result.testExecError ? String(result.testExecError.message) : '',
			...(result.console ?? []).map((entry) => String(entry.message)),
			...result.testResults.flatMap((t) => [t.fullName, ...t.failureMessages]),
		];
		for (const text of texts) {
			this.jestTexts++;
			this.jestBytes += text.length;
			this.hits.push(...findSecrets(text, where));
		}
		if (!result.testExecError && result.numPassingTests + result.numFailingTests > 0) this.ranFiles.push(result.testFilePath);
	}

	readTallies() {
		const tallies = [];
		if (!fs.existsSync(this.tallyDir)) return tallies;
		for (const name of fs.readdirSync(this.tallyDir)) tallies.push(JSON.parse(fs.readFileSync(path.join(this.tallyDir, name), 'utf8')));
		return tallies;
	}

	onRunComplete() {
		const tallies = this.readTallies();
		fs.rmSync(this.tallyDir, { recursive: true, force: true });
		const observed = tallies.reduce((n, t) => n + t.observed, 0);
		const observedBytes = tallies.reduce((n, t) => n + t.bytes, 0);
		for (const t of tallies) this.hits.push(...t.hits);

		const problems = [];
		const watched = new Set(tallies.filter((t) => t.observed > 0).map((t) => t.testPath));
		for (const prefix of this.options.mustObserve ?? []) {
			const blind = this.ranFiles.filter((f) => path.relative(this.root, f).startsWith(prefix) && !watched.has(f));
			if (blind.length) problems.push(`the secret watch saw no node output from ${blind.map((f) => path.relative(this.root, f)).join(', ')}: is the harness still calling observe()?`);
		}

		let files = { files: 0, bytes: 0, hits: [] };
		const dirs = (this.options.scan ?? []).map((d) => path.join(this.root, d)).filter((d) => fs.existsSync(d));
		if (dirs.length) {
			files = scanFiles(dirs);
			this.hits.push(...files.hits.map((h) => ({ ...h, where: path.relative(this.root, h.where) })));
			if (this.ranFiles.length && files.files === 0) problems.push(`nothing to scan under ${this.options.scan.join(', ')}`);
		}

		const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;
		const seen = [
			`${this.jestTexts} test names, messages and console entries (${mb(this.jestBytes)})`,
			`${observed} node outputs, errors and log lines (${mb(observedBytes)})`,
			...(dirs.length ? [`${files.files} files under ${this.options.scan.join(', ')} (${mb(files.bytes)})`] : []),
		].join('; ');
		if (this.hits.length) problems.unshift(`${this.hits.length} secret(s) found:\n${formatHits(this.hits)}`);
		if (problems.length) {
			this.error = new Error(`Secret scan failed: ${problems.join('\n')}`);
			process.stderr.write(`\nSecret scan FAILED. Scanned ${seen}.\n${problems.join('\n')}\n`);
		} else {
			process.stderr.write(`\nSecret scan: no API key, client secret, token or code in ${seen}.\n`);
		}
	}

	getLastError() {
		return this.error;
	}
}

module.exports = SecretScanReporter;
