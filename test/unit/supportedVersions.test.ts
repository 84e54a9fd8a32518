/**
 * The n8n versions the package declares are the ones it is tested on: the oldest supported version in the README
 * is the oldest n8n the end-to-end suite runs (never skipped in CI), docs/tested-versions.md lists every version it
 * runs, and the node API level in package.json is one n8n accepts (n8n reads `n8n.n8nNodesApiVersion` when it
 * installs or reloads a community package).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { N8N_NODES_API_VERSION, checkNodesApiVersion } from 'n8n-workflow';

import { API_CHANGES, atLeast } from '../e2e/n8nApiChanges';

const ROOT = join(__dirname, '..', '..');
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const testedVersions = readFileSync(join(ROOT, 'docs', 'tested-versions.md'), 'utf8');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { SETUPS } = require('../../scripts/n8n-runtime') as { SETUPS: Record<string, unknown> };

const byVersion = (a: string, b: string) => {
	const [x, y] = [a, b].map((v) => v.split('.').map(Number));
	return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
};

/** version -> the e2e file that runs it, and whether that file may skip it. */
function e2eSuites(): Map<string, { file: string; skippable: string }> {
	const dir = join(ROOT, 'test', 'e2e');
	const suites = new Map<string, { file: string; skippable: string }>();
	for (const file of readdirSync(dir).filter((f) => f.endsWith('.e2e.ts'))) {
		const m = /defineSuite\(\{ version: (?:process\.env\.\w+ \|\| )?'(\d+\.\d+\.\d+)'[^)]*?(?:skipWhenNotInstalled: ([^,}]+))?/.exec(readFileSync(join(dir, file), 'utf8'));
		if (m) suites.set(m[1], { file, skippable: (m[2] ?? 'false').trim() });
	}
	return suites;
}

describe('supported n8n versions', () => {
	const oldestInstallable = Object.keys(SETUPS).sort(byVersion)[0];

	it('README states the oldest supported n8n, which is the oldest the end-to-end suite runs', () => {
		const stated = /\*\*Supported n8n versions:\*\* n8n (\d+\.\d+\.\d+) and later/.exec(readme)?.[1];
		const suites = e2eSuites();
		const oldestTested = [...suites.keys()].sort(byVersion)[0];
		expect({ stated, oldestTested, oldestInstallable }).toEqual({ stated: oldestInstallable, oldestTested: oldestInstallable, oldestInstallable });
		// In CI (CI is set) the oldest version is installed when missing, not skipped.
		expect(['false', '!process.env.CI']).toContain(suites.get(oldestTested!)!.skippable);
	});

	it("docs/tested-versions.md's table lists every version the end-to-end suite runs", () => {
		for (const version of e2eSuites().keys()) expect(testedVersions).toMatch(new RegExp(`^\\| ${version.replace(/\./g, '\\.')} \\| \\d+ \\|`, 'm'));
	});

	it("package.json declares a node API level n8n accepts (n8n-workflow's own check)", () => {
		expect(pkg.n8n.n8nNodesApiVersion).toBe(1);
		expect(checkNodesApiVersion(pkg)).toEqual({ compatible: true, version: 1 });
		expect(pkg.n8n.n8nNodesApiVersion).toBeLessThanOrEqual(N8N_NODES_API_VERSION);
	});

	it('each n8n API difference the package guards: the guard says from which n8n version, and a tested version lacks it', () => {
		const tested = [...e2eSuites().keys()];
		for (const change of API_CHANGES) {
			const text = readFileSync(join(ROOT, change.guard.file), 'utf8');
			const [major, minor] = change.from.split('.');
			// the comment at the guard names the version the end-to-end probe checks (n8nApiChanges.ts), and no other
			const named = [...text.matchAll(/n8n before (\d+\.\d+)/g)].map((m) => m[1]);
			expect({ file: change.guard.file, named }).toEqual({ file: change.guard.file, named: [`${major}.${minor}`] });
			// a guard for something every tested n8n has would be untested code
			expect(tested.filter((v) => !atLeast(v, change.from)).length).toBeGreaterThan(0);
		}
	});
});
