/**
 * The package as a community node, for the n8n harness (scripts/n8n-harness.js): `npm pack` (or the tarball
 * named by LOFTY_PACKAGE_TARBALL), unpacking into <userFolder>/.n8n/nodes/node_modules/<package>, and a probe
 * that the node loads with n8n's own n8n-workflow.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');
const { cleanEnv } = require('../n8n-runtime');
const { fail, readPackageJson } = require('./core');
const { runSync, runNpm } = require('./build');

/**
 * `npm pack` into `destDir`: { tarball, info } (info: npm pack --json entry). When LOFTY_PACKAGE_TARBALL names a
 * tarball made by `scripts/pack-check.js --out` (CI and the release workflow), that very file is used instead,
 * so what the suites install is what gets published.
 */
function packPackage(destDir) {
	const given = process.env.LOFTY_PACKAGE_TARBALL;
	if (given) {
		const info = JSON.parse(fs.readFileSync(`${given}.json`, 'utf8'));
		if (info.version !== readPackageJson().version) fail(`LOFTY_PACKAGE_TARBALL ${given} is version ${info.version}, package.json says ${readPackageJson().version}`);
		return { tarball: path.resolve(given), info };
	}
	fs.mkdirSync(destDir, { recursive: true });
	const out = runNpm(['pack', '--ignore-scripts', '--json', '--pack-destination', destDir], 'npm pack');
	const info = JSON.parse(out.slice(out.indexOf('[')))[0];
	return { tarball: path.join(destDir, info.filename), info };
}

/**
 * Unpack the tarball at <userFolder>/.n8n/nodes/node_modules/<package> (replacing what was there), with
 * .n8n/nodes/package.json listing it, as n8n's community-node install leaves it. Returns the package folder.
 */
function installPackage({ tarball, userFolder, packageName, version }) {
	const pkg = readPackageJson();
	const runtimeDeps = Object.keys(pkg.dependencies ?? {});
	if (runtimeDeps.length) fail(`the package has runtime dependencies (${runtimeDeps.join(', ')}); community nodes must not`);
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const pkgDir = path.join(nodesDir, 'node_modules', packageName);
	fs.rmSync(pkgDir, { recursive: true, force: true });
	fs.mkdirSync(pkgDir, { recursive: true });
	runSync('tar', ['-xzf', tarball, '-C', pkgDir, '--strip-components=1'], 'tar -x');
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify({ name: 'installed-nodes', private: true, dependencies: { [packageName]: version } }, null, 2),
	);
	if (fs.existsSync(path.join(pkgDir, 'node_modules'))) fail('the unpacked package carries its own node_modules');
	return pkgDir;
}

/**
 * Load the installed node file the way n8n does (n8n puts its own module paths on NODE_PATH before it
 * loads community packages, so n8n-workflow comes from n8n). Returns { wf, wfVersion, name, version }.
 */
function probeInstalledNode({ rt, pkgDir, nodeFile }) {
	const n8nPkgDir = path.dirname(path.dirname(rt.n8nBin));
	const n8nPaths = require('module')._nodeModulePaths(path.join(n8nPkgDir, 'dist'));
	const probe = spawnSync(
		rt.nodeBin,
		[
			'-e',
			`const wf = require.resolve('n8n-workflow');
			const mod = require(${JSON.stringify(path.join(pkgDir, nodeFile))});
			const Cls = Object.values(mod).find((v) => typeof v === 'function');
			const d = new Cls().description;
			console.log(JSON.stringify({ wf, wfVersion: require('n8n-workflow/package.json').version, name: d.name, version: d.version }));`,
		],
		{ cwd: os.tmpdir(), encoding: 'utf8', env: { ...cleanEnv(), NODE_PATH: n8nPaths.join(path.delimiter) } },
	);
	if (probe.status !== 0) fail(`the packed node does not load with n8n's module paths:\n${probe.stderr}`);
	const info = JSON.parse(probe.stdout.trim().split('\n').pop());
	if (!info.wf.startsWith(path.dirname(n8nPkgDir) + path.sep)) fail(`n8n-workflow resolved outside n8n: ${info.wf}`);
	return info;
}

module.exports = { packPackage, installPackage, probeInstalledNode };
