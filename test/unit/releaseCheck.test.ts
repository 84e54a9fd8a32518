/**
 * scripts/release-check.js, run as the release workflow runs it (a child process), on throw-away package folders:
 * the tag must be v<package.json version>, also inside the tarball to publish, and CHANGELOG.md must have the
 * version's section with its date.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const SCRIPT = join(ROOT, 'scripts', 'release-check.js');
const dirs: string[] = [];

afterAll(() => {
	for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A package folder with this version and CHANGELOG text. */
function repo(version: string, changelog: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'lofty-release-'));
	dirs.push(dir);
	writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'n8n-nodes-lofty', version }));
	writeFileSync(join(dir, 'CHANGELOG.md'), changelog);
	return dir;
}

/** An npm-style tarball (files under package/) holding a package.json of this version. */
function tarball(version: string): string {
	const dir = mkdtempSync(join(tmpdir(), 'lofty-release-tgz-'));
	dirs.push(dir);
	mkdirSync(join(dir, 'package'));
	writeFileSync(join(dir, 'package', 'package.json'), JSON.stringify({ name: 'n8n-nodes-lofty', version }));
	const file = join(dir, `n8n-nodes-lofty-${version}.tgz`);
	expect(spawnSync('tar', ['-czf', file, '-C', dir, 'package']).status).toBe(0);
	return file;
}

function run(args: string[]) {
	const out = join(mkdtempSync(join(tmpdir(), 'lofty-release-out-')), 'github-output');
	dirs.push(join(out, '..'));
	const r = spawnSync(process.execPath, [SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, GITHUB_OUTPUT: out } });
	let output = '';
	try {
		output = readFileSync(out, 'utf8');
	} catch {
		/* nothing written */
	}
	return { code: r.status, stdout: r.stdout, stderr: r.stderr, output };
}

const released = (v: string) => `# Changelog\n\n## ${v} (2026-12-01)\n\n- First release.\n`;

describe('release check (scripts/release-check.js)', () => {
	it('passes a tag equal to package.json\'s version with a dated CHANGELOG section, and names the npm dist-tag', () => {
		const r = run(['v1.2.3', '--root', repo('1.2.3', released('1.2.3'))]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/npm dist-tag latest/);
		expect(r.output).toBe('version=1.2.3\ndist-tag=latest\n');
	});

	it('publishes a pre-release under "next"', () => {
		const r = run(['v2.0.0-rc.1', '--root', repo('2.0.0-rc.1', released('2.0.0-rc.1'))]);
		expect(r.code).toBe(0);
		expect(r.output).toBe('version=2.0.0-rc.1\ndist-tag=next\n');
	});

	it.each([
		['a tag of another version', 'v1.2.4', /tag v1\.2\.4 does not match package\.json's version 1\.2\.3/],
		['a tag without the v', '1.2.3', /tag "1\.2\.3" is not v<major>/],
		['a branch name', 'main', /tag "main" is not v<major>/],
		['no tag at all', undefined, /tag "" is not v<major>/],
	])('fails %s', (_what, tag, message) => {
		const r = run([...(tag ? [tag] : []), '--root', repo('1.2.3', released('1.2.3'))]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(message);
		expect(r.output).toBe('');
	});

	it('fails while CHANGELOG.md marks the version unreleased, or lacks it', () => {
		const unreleased = run(['v1.2.3', '--root', repo('1.2.3', '# Changelog\n\n## 1.2.3 (unreleased)\n')]);
		expect(unreleased.code).toBe(1);
		expect(unreleased.stderr).toMatch(/still marks 1\.2\.3 unreleased/);
		const missing = run(['v1.2.3', '--root', repo('1.2.3', released('1.2.2'))]);
		expect(missing.code).toBe(1);
		expect(missing.stderr).toMatch(/has no "## 1\.2\.3" section/);
	});

	it('checks the package.json inside the tarball that will be published', () => {
		const root = repo('1.2.3', released('1.2.3'));
		expect(run(['v1.2.3', '--root', root, '--tarball', tarball('1.2.3')]).code).toBe(0);
		const stale = run(['v1.2.3', '--root', root, '--tarball', tarball('1.2.2')]);
		expect(stale.code).toBe(1);
		expect(stale.stderr).toMatch(/holds n8n-nodes-lofty@1\.2\.2, the repository is n8n-nodes-lofty@1\.2\.3/);
	});

	it("accepts this repository's own version as a tag (only the CHANGELOG can hold a release back)", () => {
		const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		const r = run([`v${version}`]);
		expect(r.stderr).not.toMatch(/does not match|is not v<major>/);
	});
});
