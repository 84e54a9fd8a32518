/**
 * The GitHub workflows: the offline linter (scripts/lint-workflows.js, .ci/run's "workflows" step) fails on a
 * broken workflow and on none, and the two workflows keep what the release depends on.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { VERY_LONG_TEST_MS } from '../harness/budgets';

const ROOT = join(__dirname, '..', '..');
const read = (name: string) => readFileSync(join(ROOT, '.github', 'workflows', name), 'utf8');
const lint = (...files: string[]) => spawnSync(process.execPath, [join(ROOT, 'scripts', 'lint-workflows.js'), ...files], { encoding: 'utf8' });

describe('workflow linter (scripts/lint-workflows.js)', () => {
	it('fails a workflow with a misspelt trigger, an unknown action input and a missing job', () => {
		const dir = mkdtempSync(join(tmpdir(), 'lofty-wf-'));
		try {
			const file = join(dir, 'broken.yml');
			writeFileSync(
				file,
				[
					'on:',
					'  push:',
					"    tagz: ['v*']",
					'jobs:',
					'  a:',
					'    needs: missing',
					'    runs-on: ubuntu-24.04',
					'    steps:',
					'      - uses: actions/checkout@v4',
					'        with:',
					'          pathh: repo',
					'',
				].join('\n'),
			);
			const r = lint(file);
			expect(r.status).toBe(1);
			expect(r.stdout).toMatch(/unexpected key "tagz"/);
			expect(r.stdout).toMatch(/input "pathh" is not defined in action "actions\/checkout@v4"/);
			expect(r.stdout).toMatch(/needs job "missing" which does not exist/);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	}, VERY_LONG_TEST_MS); // compiling the 9 MB WebAssembly module takes 2-3 s of CPU, far longer on a busy machine

	it('fails in a repository without workflows (a lint of nothing does not pass)', () => {
		const dir = mkdtempSync(join(tmpdir(), 'lofty-wf-'));
		try {
			mkdirSync(join(dir, 'scripts'));
			copyFileSync(join(ROOT, 'scripts', 'lint-workflows.js'), join(dir, 'scripts', 'lint-workflows.js'));
			const r = spawnSync(process.execPath, [join(dir, 'scripts', 'lint-workflows.js')], { encoding: 'utf8' });
			expect({ status: r.status, stderr: r.stderr }).toEqual({ status: 1, stderr: 'lint-workflows: no workflow files to lint\n' });
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe('workflows', () => {
	it('CI runs .ci/run on pushes and pull requests, on Node 20, with shared/reference beside the clone', () => {
		const ci = read('ci.yml');
		expect(ci).toMatch(/^on:\n {2}push:[\s\S]*\n {2}pull_request:/m);
		expect(ci).toMatch(/image: node:20-bookworm/);
		expect(ci).toMatch(/path: repo\n/);
		expect(ci).toMatch(/path: shared\/reference\n/);
		expect(ci).toMatch(/working-directory: repo\n\s+run: bash \.ci\/run\n/);
	});

	it('publishing runs on version tags: release check, .ci/run, the tested file checked by sha256, npm publish with provenance', () => {
		const publish = read('publish.yml');
		expect(publish).toMatch(/^on:\n {2}push:\n {4}tags: \['v\*\.\*\.\*'\]/m);
		const order = ['node scripts/release-check.js "$TAG"\n', 'run: bash .ci/run\n', 'sha256sum --check', 'npm publish "$FILE" --provenance --access public'];
		const at = order.map((s) => publish.indexOf(s));
		expect(at.every((i) => i > 0)).toBe(true);
		expect([...at].sort((x, y) => x - y)).toEqual(at);
		// OIDC for npm's provenance statement, on the publish job only.
		expect(publish.match(/id-token: write/g)).toHaveLength(1);
		expect(publish.indexOf('id-token: write')).toBeGreaterThan(publish.indexOf('\n  publish:\n'));
	});
});
