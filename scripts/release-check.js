#!/usr/bin/env node
/**
 * Release gate of .github/workflows/publish.yml: `node scripts/release-check.js <tag> [--tarball FILE] [--root DIR]`.
 *
 *  - the tag is `v<version>` and <version> is package.json's version (also the package.json inside the tarball
 *    that will be published, with --tarball);
 *  - CHANGELOG.md has a `## <version>` section that is not marked unreleased.
 *
 * Prints the npm dist-tag to publish under (`latest`, or `next` for a pre-release such as 1.2.0-rc.1) and, on
 * GitHub Actions, writes `version=` and `dist-tag=` to $GITHUB_OUTPUT. Exits 1 with every problem listed.
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const { spawnSync } = require('child_process');

const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z.-]+)?$/;

function escapeRegExp(s) {
	return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The package.json inside an npm tarball (its files sit under package/). */
function tarballPackageJson(tarball) {
	const r = spawnSync('tar', ['-xOzf', tarball, 'package/package.json'], { encoding: 'utf8' });
	if (r.status !== 0) throw new Error(`cannot read package/package.json from ${tarball}: ${r.stderr.trim()}`);
	return JSON.parse(r.stdout);
}

/** { version, distTag, problems } for a tag against the repository at `root` (and a tarball when given). */
function checkRelease({ tag, root, tarball }) {
	const problems = [];
	const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
	const version = /^v/.test(tag ?? '') ? tag.slice(1) : null;
	if (!version || !SEMVER.test(version)) problems.push(`tag "${tag ?? ''}" is not v<major>.<minor>.<patch>[-pre-release]`);
	else if (version !== pkg.version) problems.push(`tag ${tag} does not match package.json's version ${pkg.version} (bump package.json, or tag v${pkg.version})`);
	if (tarball) {
		const packed = tarballPackageJson(tarball);
		if (packed.name !== pkg.name || packed.version !== pkg.version)
			problems.push(`${path.basename(tarball)} holds ${packed.name}@${packed.version}, the repository is ${pkg.name}@${pkg.version}`);
	}
	const changelogFile = path.join(root, 'CHANGELOG.md');
	const changelog = fs.existsSync(changelogFile) ? fs.readFileSync(changelogFile, 'utf8') : '';
	const heading = new RegExp(`^## \\[?${escapeRegExp(pkg.version)}\\]?(.*)$`, 'm').exec(changelog);
	if (!heading) problems.push(`CHANGELOG.md has no "## ${pkg.version}" section`);
	else if (/unreleased/i.test(heading[1])) problems.push(`CHANGELOG.md still marks ${pkg.version} unreleased: "${heading[0].trim()}" (give it the release date)`);
	return { version: pkg.version, distTag: pkg.version.includes('-') ? 'next' : 'latest', problems };
}

function main(argv) {
	const opt = (name) => {
		const i = argv.indexOf(name);
		return i >= 0 ? argv[i + 1] : undefined;
	};
	const tag = argv.find((a, i) => !a.startsWith('--') && !['--tarball', '--root'].includes(argv[i - 1]));
	const root = path.resolve(opt('--root') ?? path.join(__dirname, '..'));
	const { version, distTag, problems } = checkRelease({ tag, root, tarball: opt('--tarball') });
	if (problems.length) {
		process.stderr.write(`release check failed for tag ${tag ?? '(none)'}:\n${problems.map((p) => `  - ${p}`).join('\n')}\n`);
		return 1;
	}
	process.stdout.write(`release ${tag}: package.json ${version}, CHANGELOG section present; npm dist-tag ${distTag}\n`);
	if (process.env.GITHUB_OUTPUT) fs.appendFileSync(process.env.GITHUB_OUTPUT, `version=${version}\ndist-tag=${distTag}\n`);
	return 0;
}

module.exports = { checkRelease };

if (require.main === module) {
	try {
		process.exit(main(process.argv.slice(2)));
	} catch (e) {
		process.stderr.write(`release-check: ${e.message}\n`);
		process.exit(1);
	}
}
