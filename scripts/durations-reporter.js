/**
 * jest reporter: writes each test file's run time (seconds, slowest first) to `.build/durations-<name>.json`
 * (`name` from $LOFTY_DURATIONS_NAME, else the reporter's options: `jest`, `e2e`; scripts/e2e-lanes.js names one a
 * lane). `node scripts/slowest.js` prints the slowest of them;
 * `.ci/run` does so at its end.
 */
'use strict';
const fs = require('fs');
const path = require('path');

class DurationsReporter {
	constructor(globalConfig, options = {}) {
		this.rootDir = globalConfig.rootDir;
		this.name = process.env.LOFTY_DURATIONS_NAME || options.name || 'jest';
		this.files = [];
	}

	onTestResult(test, result) {
		const { start, end } = result.perfStats ?? {};
		if (!start || !end) return;
		this.files.push({ file: path.relative(this.rootDir, test.path), seconds: Math.round((end - start) / 100) / 10, failed: result.numFailingTests > 0 || Boolean(result.testExecError) });
	}

	onRunComplete() {
		const dir = path.join(this.rootDir, '.build');
		fs.mkdirSync(dir, { recursive: true });
		this.files.sort((a, b) => b.seconds - a.seconds);
		fs.writeFileSync(path.join(dir, `durations-${this.name}.json`), `${JSON.stringify(this.files, null, '\t')}\n`);
	}
}

module.exports = DurationsReporter;
