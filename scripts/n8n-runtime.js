#!/usr/bin/env node
/**
 * A real n8n, installed once into a cache folder outside the repository.
 *
 *   const { ensureN8n } = require('./n8n-runtime');
 *   const { nodeBin, n8nBin, version } = ensureN8n({ version: '2.41.1' });
 *   // run n8n with: spawn(nodeBin, [n8nBin, 'execute', ...])
 *
 * CLI: node scripts/n8n-runtime.js [--version 2.41.1] [--json]
 *
 * Supported setups (each measured to work on this registry mirror, see SETUPS):
 *   - n8n 2.41.1   on Node 24 (Node 24 itself comes from `npm install node@24` into the cache)
 *   - n8n 2.8.4    on the system Node 20 (>= 20.19)
 *   - n8n 1.123.81 on Node 24 (the 1.x line; n8n accepts Node 20, its isolated-vm does not build there)
 *
 * The cache root is $LOFTY_N8N_CACHE or ~/.cache/n8n-nodes-lofty. Each setup lives in its own
 * folder with a marker file written only after a complete, verified install, so a second call
 * returns at once. One lock folder (`.lock`, the same in every version of this script, so a checkout of an
 * older commit waits too) keeps two installs from running at the same time, whatever their versions: an install
 * of another version waits for the running one (a per-version lock let a newer script delete a folder an older
 * script was still installing into).
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const path = require('path');
const { spawnSync } = require('child_process');

const DEFAULT_VERSION = '2.41.1';

/** Per-version recipe: which Node runs it and which overrides the registry mirror needs. */
const SETUPS = {
	'2.41.1': { node: '24', overrides: { linkedom: '0.18.14' } },
	'2.8.4': { node: 'system', minNode: [20, 19], overrides: { linkedom: '0.18.14', xlsx: '0.18.5' } },
	// The 1.x line: n8n itself accepts Node 20, but its isolated-vm does not build there (v8 API), so Node 24.
	'1.123.81': { node: '24', overrides: { linkedom: '0.18.14', xlsx: '0.18.5' } },
};

/** Newer versions that do not install from this registry mirror, and why (asked for, they fail with this). */
const UNAVAILABLE = {
	'2.41.3':
		'n8n 2.41.3 needs packages missing from the registry mirror it was measured on (2026-11-25: n8n-core@2.41.2, @n8n/agents@0.26.2, @n8n/task-runner@2.41.2, ' +
		'@n8n/n8n-nodes-langchain@2.41.2, @n8n/instance-ai@1.26.2, @n8n/ai-workflow-builder@1.41.2): 2.41.1 is the newest 2.41.x that installs',
};

const NATIVE_MODULES = ['sqlite3', 'isolated-vm'];

function cacheRoot() {
	return process.env.LOFTY_N8N_CACHE || path.join(os.homedir(), '.cache', 'n8n-nodes-lofty');
}

function log(msg) {
	process.stderr.write(`[n8n-runtime] ${msg}\n`);
}

/**
 * Environment for npm child processes: without the npm_config_* / npm_package_* variables that
 * an enclosing `npm run` exports (the repository's .npmrc sets ignore-scripts=true, which would
 * otherwise leak into the cache install and break `npm rebuild` and `npm install node@24`).
 */
function cleanEnv(extra = {}) {
	const env = {};
	for (const [k, v] of Object.entries(process.env)) {
		const lk = k.toLowerCase();
		if (lk.startsWith('npm_config_') || lk.startsWith('npm_package_') || lk.startsWith('npm_lifecycle_')) continue;
		if (lk === 'init_cwd' || lk === 'npm_command' || lk === 'npm_execpath' || lk === 'npm_node_execpath') continue;
		env[k] = v;
	}
	return { ...env, ...extra };
}

function npmCli() {
	// The npm that ships with the Node running this script (system Node 20 in CI).
	const candidates = [
		path.join(path.dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js'),
		path.join(path.dirname(process.execPath), 'node_modules', 'npm', 'bin', 'npm-cli.js'),
	];
	for (const c of candidates) if (fs.existsSync(c)) return c;
	return null;
}

/** Runs npm; with `logFile` its output goes there (a compiler's hundreds of lines), and its last lines into a failure. */
function run(args, { cwd, env, label, nodeExec = process.execPath, logFile }) {
	const cli = npmCli();
	const [cmd, argv] = cli ? [nodeExec, [cli, ...args]] : ['npm', args];
	const t0 = Date.now();
	log(`${label}: npm ${args.join(' ')}  (in ${cwd}${logFile ? `; output in ${logFile}` : ''})`);
	const out = logFile ? fs.openSync(logFile, 'w') : 'inherit';
	let r;
	try {
		r = spawnSync(cmd, argv, { cwd, env, stdio: ['ignore', out, out], maxBuffer: 1 << 28 });
	} finally {
		if (logFile) fs.closeSync(out);
	}
	const secs = ((Date.now() - t0) / 1000).toFixed(1);
	if (r.error) throw new Error(`${label} failed to start: ${r.error.message}`);
	if (r.status !== 0) {
		const last = logFile ? `; last lines of ${logFile}:\n${fs.readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-20).join('\n')}` : '';
		throw new Error(`${label} failed (exit ${r.status}, signal ${r.signal}) after ${secs}s${last}`);
	}
	log(`${label}: done in ${secs}s`);
}

function writeJson(file, data) {
	fs.writeFileSync(file, JSON.stringify(data, null, 2) + '\n');
}

function readJson(file) {
	try {
		return JSON.parse(fs.readFileSync(file, 'utf8'));
	} catch {
		return null;
	}
}

function sleepMs(ms) {
	Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Cross-process lock: mkdir is atomic. Stale locks (dead pid) are taken over. */
function withLock(lockDir, fn) {
	const deadline = Date.now() + 30 * 60 * 1000;
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
			break;
		} catch (e) {
			if (e.code !== 'EEXIST') throw e;
			let pid = NaN;
			try {
				pid = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
			} catch {
				/* being written */
			}
			let alive = true;
			if (Number.isInteger(pid) && pid > 0) {
				try {
					process.kill(pid, 0);
				} catch {
					alive = false;
				}
			}
			if (!alive) {
				log(`removing stale lock of dead process ${pid}`);
				fs.rmSync(lockDir, { recursive: true, force: true });
				continue;
			}
			if (Date.now() > deadline) throw new Error(`timed out waiting for lock ${lockDir}`);
			log(`another install is running (pid ${pid}); waiting...`);
			sleepMs(5000);
		}
	}
	try {
		return fn();
	} finally {
		fs.rmSync(lockDir, { recursive: true, force: true });
	}
}

/** Node 24 from the npm registry (`npm install node@24`): returns its folder (bin/, include/). */
function ensureNode24(root) {
	const dir = path.join(root, 'node-24');
	const marker = path.join(dir, '.installed.json');
	const m = readJson(marker);
	if (m && fs.existsSync(m.nodeBin)) return m;

	fs.rmSync(dir, { recursive: true, force: true });
	fs.mkdirSync(dir, { recursive: true });
	writeJson(path.join(dir, 'package.json'), { name: 'lofty-node24-cache', private: true });
	// The `node` package's own install script fetches node-<platform>-<arch> from the registry: keep scripts on.
	run(['install', 'node@24', '--ignore-scripts=false', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: dir,
		env: cleanEnv(),
		label: 'install node@24',
	});
	const platDir = path.join(dir, 'node_modules', 'node', 'node_modules', `node-${process.platform}-${process.arch}`);
	const nodeBin = path.join(platDir, 'bin', 'node');
	if (!fs.existsSync(nodeBin)) throw new Error(`Node 24 binary not found at ${nodeBin}`);
	if (!fs.existsSync(path.join(platDir, 'include', 'node', 'node_api.h')))
		throw new Error(`Node 24 headers not found under ${platDir}/include/node`);
	const v = spawnSync(nodeBin, ['--version'], { encoding: 'utf8' });
	if (v.status !== 0 || !/^v24\./.test(v.stdout.trim())) throw new Error(`unexpected Node 24 binary: ${v.stdout} ${v.stderr}`);
	const info = { nodeBin, nodeDir: platDir, nodeVersion: v.stdout.trim() };
	writeJson(marker, info);
	return info;
}

/** The major.minor.patch a headers folder (`<dir>/include/node`) was made for, or null when it has none. */
function headersVersion(dir) {
	let text;
	try {
		text = fs.readFileSync(path.join(dir, 'include', 'node', 'node_version.h'), 'utf8');
	} catch {
		return null;
	}
	if (!fs.existsSync(path.join(dir, 'include', 'node', 'common.gypi'))) return null;
	const part = (name) => (text.match(new RegExp(`#define NODE_${name}_VERSION (\\d+)`)) || [])[1];
	const [major, minor, patch] = ['MAJOR', 'MINOR', 'PATCH'].map(part);
	return major ? `${major}.${minor}.${patch}` : null;
}

/**
 * The headers of the Node running this script, for building native modules against it (node-gyp's nodedir), found
 * without a download and without relying on a user's ~/.npmrc: LOFTY_NODEDIR or npm_config_nodedir when set, the
 * folder Node is installed in (/usr for Debian's /usr/bin/node, whose `nodejs` package puts them in
 * /usr/include/node), /usr/local, /usr. Only headers of the same major version count (the native ABI).
 */
function systemNodeDir() {
	const candidates = [
		process.env.LOFTY_NODEDIR,
		process.env.npm_config_nodedir,
		path.resolve(path.dirname(process.execPath), '..'),
		'/usr/local',
		'/usr',
	].filter(Boolean);
	const major = process.versions.node.split('.')[0];
	const seen = [];
	for (const dir of [...new Set(candidates)]) {
		const v = headersVersion(dir);
		seen.push(`${path.join(dir, 'include', 'node')}${v ? ` (headers of Node ${v})` : ' (none)'}`);
		if (v && v.split('.')[0] === major) return dir;
	}
	throw new Error(
		`n8n's native modules (sqlite3) must be built against this Node (${process.version}), and its C headers were not found: ` +
			`looked in ${seen.join(', ')}. Install them (Debian: the nodejs package of this Node puts them in /usr/include/node; ` +
			`or unpack node-${process.version}-headers.tar.gz from nodejs.org) and set LOFTY_NODEDIR to the folder that holds include/node.`,
	);
}

function markerPath(dir) {
	return path.join(dir, '.installed.json');
}

/**
 * Packages the install's lockfile names (not optional, not dev) that are not on disk. An install that another
 * process cut into (a folder deleted midway) still finishes with npm's exit 0 and n8n --version answering; only a
 * command loading the missing module fails later, so the whole tree is checked (about 2,500 entries, milliseconds).
 */
function missingPackages(dir) {
	const lock = readJson(path.join(dir, 'package-lock.json'));
	if (!lock || !lock.packages) return ['package-lock.json'];
	return Object.entries(lock.packages)
		// Packages for other platforms (os, cpu, libc) are skipped by npm by design.
		.filter(([key, entry]) => key && !entry.optional && !entry.dev && !entry.devOptional && !entry.os && !entry.cpu && !entry.libc)
		.filter(([key]) => !fs.existsSync(path.join(dir, key)))
		.map(([key]) => key);
}

/** Fast path: a finished install whose files are still there, all of them. */
function cached(dir) {
	const m = readJson(markerPath(dir));
	if (!(m && fs.existsSync(m.nodeBin) && fs.existsSync(m.n8nBin))) return null;
	const missing = missingPackages(dir);
	if (missing.length === 0) return { nodeBin: m.nodeBin, n8nBin: m.n8nBin, version: m.version };
	log(`install in ${dir} lacks ${missing.length} packages (${missing.slice(0, 3).join(', ')}, ...): installing again`);
	fs.rmSync(markerPath(dir), { force: true });
	fs.rmSync(path.join(dir, '.npm-install.done'), { force: true });
	return null;
}

/**
 * Install (once) and return { nodeBin, n8nBin, version }.
 * nodeBin: the Node binary to run n8n with; n8nBin: n8n's bin JS (node_modules/n8n/bin/n8n).
 */
function ensureN8n({ version = DEFAULT_VERSION } = {}) {
	const setup = SETUPS[version];
	if (!setup && UNAVAILABLE[version]) throw new Error(UNAVAILABLE[version]);
	if (!setup) throw new Error(`n8n ${version} is not a supported setup here (supported: ${Object.keys(SETUPS).join(', ')})`);
	const root = cacheRoot();
	const dir = path.join(root, `n8n-${version}`);
	const hit = cached(dir);
	if (hit) return hit;

	fs.mkdirSync(root, { recursive: true });
	return withLock(path.join(root, '.lock'), () => {
		const again = cached(dir); // another process may have finished while we waited
		if (again) return again;
		const t0 = Date.now();

		let nodeBin;
		let nodeDir;
		if (setup.node === '24') {
			const n = ensureNode24(root);
			nodeBin = n.nodeBin;
			nodeDir = n.nodeDir;
		} else {
			const [maj, min] = process.versions.node.split('.').map(Number);
			const [wantMaj, wantMin] = setup.minNode;
			if (maj < wantMaj || (maj === wantMaj && min < wantMin))
				throw new Error(`n8n ${version} needs Node >= ${wantMaj}.${wantMin}; this is ${process.version}`);
			nodeBin = process.execPath;
			nodeDir = systemNodeDir();
		}

		// Step 1 (minutes): npm install. Its own marker lets a failed rebuild/verify retry without it.
		const installDone = path.join(dir, '.npm-install.done');
		const n8nPkg = readJson(path.join(dir, 'node_modules', 'n8n', 'package.json'));
		if (!fs.existsSync(installDone) || !n8nPkg || n8nPkg.version !== version) {
			fs.rmSync(dir, { recursive: true, force: true });
			fs.mkdirSync(dir, { recursive: true });
			writeJson(path.join(dir, 'package.json'), {
				name: `lofty-n8n-${version.replace(/\./g, '-')}-cache`,
				private: true,
				dependencies: { n8n: version },
				overrides: setup.overrides,
			});
			// A Kafka client's install script downloads binaries: install without scripts ...
			run(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
				cwd: dir,
				env: cleanEnv(),
				label: `install n8n@${version}`,
			});
			fs.writeFileSync(installDone, new Date().toISOString());
		} else {
			log(`npm install of n8n@${version} already done; resuming with the native rebuild`);
		}

		// Step 2: build only the native modules this n8n has (2.8.x has no isolated-vm), against the
		// Node that will run it.
		const n8nDir = path.join(dir, 'node_modules', 'n8n');
		const natives = NATIVE_MODULES.filter((m) => {
			try {
				require.resolve(`${m}/package.json`, { paths: [n8nDir] });
				return true;
			} catch {
				return false;
			}
		});
		log(`native modules to build: ${natives.join(', ') || '(none)'}`);
		const binDir = path.dirname(nodeBin);
		const rebuildEnv = cleanEnv({
			PATH: `${binDir}${path.delimiter}${process.env.PATH || ''}`,
			npm_config_nodedir: nodeDir,
		});
		log(`building against the headers in ${path.join(nodeDir, 'include', 'node')}`);
		if (natives.length)
			run(['rebuild', ...natives, '--ignore-scripts=false', '--foreground-scripts', '--loglevel=error'], {
				cwd: dir,
				env: rebuildEnv,
				nodeExec: nodeBin,
				label: `rebuild ${natives.join(' ')}`,
				logFile: path.join(dir, 'rebuild.log'),
			});

		const n8nBin = path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n');
		if (!fs.existsSync(n8nBin)) throw new Error(`n8n bin not found at ${n8nBin}`);
		const missing = missingPackages(dir);
		if (missing.length) {
			fs.rmSync(installDone, { force: true });
			throw new Error(`n8n ${version}: ${missing.length} packages of the lockfile are not on disk (${missing.slice(0, 5).join(', ')}); run again to reinstall`);
		}
		// Verify: the native modules load under the chosen Node, and n8n answers --version.
		const check = spawnSync(nodeBin, ['-e', natives.map((m) => `require(${JSON.stringify(m)});`).join('')], {
			cwd: n8nDir,
			encoding: 'utf8',
			env: cleanEnv(),
		});
		if (check.status !== 0) throw new Error(`native modules do not load under ${nodeBin}:\n${check.stderr}`);
		const verHome = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-ver-'));
		const ver = spawnSync(nodeBin, [n8nBin, '--version'], {
			encoding: 'utf8',
			env: cleanEnv({ N8N_USER_FOLDER: verHome }),
			timeout: 120000,
		});
		fs.rmSync(verHome, { recursive: true, force: true });
		const got = (ver.stdout || '').trim().split('\n').pop();
		if (ver.status !== 0 || got !== version) throw new Error(`n8n --version gave ${JSON.stringify(got)} (exit ${ver.status}): ${ver.stderr}`);

		const result = { nodeBin, n8nBin, version };
		writeJson(markerPath(dir), { ...result, installedAt: new Date().toISOString(), seconds: Math.round((Date.now() - t0) / 1000) });
		log(`n8n ${version} ready in ${((Date.now() - t0) / 1000).toFixed(0)}s (${dir})`);
		return result;
	});
}

/** npm (of the Node running this script) in `cwd` with a clean environment; throws with its output when it fails. */
function runNpmIn(args, { cwd, label }) {
	run(args, { cwd, env: cleanEnv(), label });
}

module.exports = { ensureN8n, cacheRoot, cleanEnv, systemNodeDir, withLock, runNpmIn, DEFAULT_VERSION, SETUPS, UNAVAILABLE };

if (require.main === module) {
	const args = process.argv.slice(2);
	let version = DEFAULT_VERSION;
	const i = args.indexOf('--version');
	if (i >= 0 && args[i + 1]) version = args[i + 1];
	try {
		const t0 = Date.now();
		const r = ensureN8n({ version });
		if (args.includes('--json')) process.stdout.write(JSON.stringify(r) + '\n');
		else process.stdout.write(`n8n ${r.version}\n  node: ${r.nodeBin}\n  n8n:  ${r.n8nBin}\n  (${Date.now() - t0} ms)\n`);
	} catch (e) {
		process.stderr.write(`[n8n-runtime] ERROR: ${e.message}\n`);
		process.exit(1);
	}
}
