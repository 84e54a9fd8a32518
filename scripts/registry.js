/**
 * A local npm registry on loopback that stands in for registry.npmjs.org, so that n8n installs this package the way
 * a user's n8n does: by its own installer (Settings > Community Nodes, or N8N_COMMUNITY_PACKAGES at start), from
 * the registry n8n asks, with nothing copied by hand.
 *
 *   const reg = new LocalRegistry({ dir, procs, log });
 *   await reg.start();                      // Verdaccio on 127.0.0.1, and the stand-in in front of it
 *   await reg.publish(tarball);             // `npm publish` of the packed package
 *   spawn(n8n, { env: { ...env, ...reg.env } })
 *
 * Why a stand-in for registry.npmjs.org, not N8N_COMMUNITY_PACKAGES_REGISTRY: in n8n 2.41.1 any registry other than
 * https://registry.npmjs.org needs the Enterprise licence feature `feat:communityNodesCustomRegistry`
 * (CommunityPackagesService.getNpmRegistry, n8n/dist/modules/community-packages/community-packages.service.js): an
 * unlicensed n8n refuses to install from it. So n8n keeps its default registry, and its processes get an HTTPS proxy
 * on loopback (HTTPS_PROXY, which n8n's own HTTP client and npm both follow) that answers for registry.npmjs.org with
 * a certificate made for this run (NODE_EXTRA_CA_CERTS) and passes the requests to Verdaccio. Every other host is
 * refused and recorded (n8n asks api.n8n.io whether a package is banned and goes on when it cannot tell).
 *
 * Verdaccio 6.8.0 is installed once into the cache folder beside n8n's (~/.cache/n8n-nodes-lofty/verdaccio-6.8.0,
 * about 15 s, 60 MB), with node-fetch pinned to 2.7.0 (the version that runs on Node 20). The certificate comes
 * from `openssl` (Debian's openssl package; postgresql depends on it).
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const http = require('http');
const https = require('https');
const path = require('path');
const { spawnSync } = require('child_process');
const { cacheRoot, cleanEnv, withLock, runNpmIn } = require('./n8n-runtime');
const { freePort, sleep, fail } = require('./harness/core');
const { httpRequest } = require('./tryout/http');

const VERDACCIO_VERSION = '6.8.0';
/** The registry n8n uses unless licensed for another one. */
const PUBLIC_REGISTRY_HOST = 'registry.npmjs.org';
const PUBLIC_REGISTRY = `https://${PUBLIC_REGISTRY_HOST}/`;

/** Verdaccio in the cache folder (installed once, under the cache's install lock): the path of its bin script. */
function ensureVerdaccio() {
	const dir = path.join(cacheRoot(), `verdaccio-${VERDACCIO_VERSION}`);
	const bin = path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	const marker = path.join(dir, '.installed');
	if (fs.existsSync(marker) && fs.existsSync(bin)) return bin;
	fs.mkdirSync(cacheRoot(), { recursive: true });
	return withLock(path.join(cacheRoot(), '.lock'), () => {
		if (fs.existsSync(marker) && fs.existsSync(bin)) return bin;
		fs.rmSync(dir, { recursive: true, force: true });
		fs.mkdirSync(dir, { recursive: true });
		const manifest = { name: 'lofty-verdaccio-cache', private: true, dependencies: { verdaccio: VERDACCIO_VERSION }, overrides: { 'node-fetch': '2.7.0' } };
		fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
		runNpmIn(['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, label: `install verdaccio@${VERDACCIO_VERSION}` });
		if (!fs.existsSync(bin)) fail(`verdaccio's bin not found at ${bin} after the install`);
		fs.writeFileSync(marker, new Date().toISOString());
		return bin;
	});
}

/** A key and a self-signed certificate for registry.npmjs.org, made for one run: { key, cert } file paths. */
function makeCertificate(dir) {
	fs.mkdirSync(dir, { recursive: true });
	const [key, cert] = [path.join(dir, 'key.pem'), path.join(dir, 'cert.pem')];
	const r = spawnSync(
		'openssl',
		['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=${PUBLIC_REGISTRY_HOST}`, '-addext', `subjectAltName=DNS:${PUBLIC_REGISTRY_HOST}`],
		{ encoding: 'utf8' },
	);
	if (r.error || r.status !== 0) fail(`openssl could not make the stand-in's certificate (apt-get install -y openssl): ${r.error?.message ?? r.stderr}`);
	return { key, cert };
}

/** `name@version` of a packed tarball (its package.json). */
function tarballManifest(tarball) {
	const r = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' });
	if (r.status !== 0) fail(`cannot read package.json in ${tarball}: ${r.stderr}`);
	return JSON.parse(r.stdout);
}

/** A copy of the packed tarball as the next patch version (what "a newer version published" means here). */
function nextPatchTarball(tarball, outDir) {
	const work = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-next-'));
	try {
		spawnSync('tar', ['-xzf', tarball, '-C', work]);
		const file = path.join(work, 'package', 'package.json');
		const pkg = JSON.parse(fs.readFileSync(file, 'utf8'));
		const [major, minor, patch] = pkg.version.split(/[.-]/).map(Number);
		pkg.version = `${major}.${minor}.${patch + 1}`;
		fs.writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
		fs.mkdirSync(outDir, { recursive: true });
		const out = path.join(outDir, `${pkg.name}-${pkg.version}.tgz`);
		const r = spawnSync('tar', ['-czf', out, '-C', work, 'package']);
		if (r.status !== 0) fail(`packing ${out} failed: ${r.stderr}`);
		return { tarball: out, version: pkg.version };
	} finally {
		fs.rmSync(work, { recursive: true, force: true });
	}
}

class LocalRegistry {
	/**
	 * @param {object} o
	 * @param {string} o.dir where Verdaccio's storage, config and log go (wiped at start); the key and certificate go
	 *   to a temporary folder outside it, removed at stop
	 * @param {object} o.procs a ProcessSet (scripts/n8n-harness.js) that Verdaccio runs in
	 * @param {(msg: string) => void} [o.log]
	 */
	constructor({ dir, procs, log = () => undefined }) {
		Object.assign(this, { dir, procs, log });
		/** Every request that reached the stand-in: { host, method, path, status } (CONNECTs and proxied requests). */
		this.requests = [];
	}

	async start() {
		const bin = ensureVerdaccio();
		fs.rmSync(this.dir, { recursive: true, force: true });
		fs.mkdirSync(path.join(this.dir, 'storage'), { recursive: true });
		this.tlsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-registry-tls-'));
		this.port = await freePort();
		this.url = `http://127.0.0.1:${this.port}/`;
		const config = path.join(this.dir, 'config.yaml');
		fs.writeFileSync(
			config,
			[
				`storage: ${path.join(this.dir, 'storage')}`,
				'auth:',
				`  htpasswd: { file: ${path.join(this.tlsDir, 'htpasswd')}, max_users: 10 }`,
				'uplinks: {}',
				'packages:',
				"  '**': { access: $all, publish: $authenticated, unpublish: $authenticated }",
				'log: { type: stdout, format: pretty, level: http }',
				'',
			].join('\n'),
		);
		// Tarball addresses in the package documents name registry.npmjs.org, so that npm fetches them through the stand-in too.
		const env = cleanEnv({ VERDACCIO_PUBLIC_URL: PUBLIC_REGISTRY });
		delete env.NODE_ENV;
		this.child = this.procs.start(process.execPath, [bin, '--config', config, '--listen', `127.0.0.1:${this.port}`], { cwd: this.dir, env });
		const logFile = path.join(this.dir, 'verdaccio.log');
		const out = fs.openSync(logFile, 'a');
		this.child.stdout.on('data', (d) => fs.writeSync(out, d));
		this.child.stderr.on('data', (d) => fs.writeSync(out, d));
		this.child.on('exit', () => fs.closeSync(out));
		for (const deadline = Date.now() + 60_000; ; await sleep(200)) {
			if (this.child.exitCode !== null) fail(`verdaccio exited at start:\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
			if ((await this.request('GET', '/-/ping')).status === 200) break;
			if (Date.now() > deadline) fail('verdaccio did not answer /-/ping within 60 s');
		}
		await this.signUp();
		await this.startStandIn();
		this.log(`registry: Verdaccio ${VERDACCIO_VERSION} at ${this.url}, standing in for ${PUBLIC_REGISTRY} through the proxy at 127.0.0.1:${this.proxyPort}`);
	}

	/** A publishing account for this run; the token stays in a temporary npmrc, never in a log. */
	async signUp() {
		const body = JSON.stringify({ name: 'lofty-ci', password: `p-${Math.random().toString(36).slice(2)}` });
		const r = await this.request('PUT', '/-/user/org.couchdb.user:lofty-ci', body);
		const token = r.json?.token;
		if (r.status !== 201 || !token) fail(`verdaccio refused the sign-up (${r.status})`);
		this.npmrc = path.join(this.tlsDir, 'npmrc');
		fs.writeFileSync(this.npmrc, `//127.0.0.1:${this.port}/:_authToken=${token}\n`);
	}

	/** `npm publish` of a tarball to this registry; resolves its version. */
	async publish(tarball) {
		const { name, version } = tarballManifest(tarball);
		runNpmIn(['publish', tarball, `--registry=${this.url}`, `--userconfig=${this.npmrc}`, '--provenance=false', '--loglevel=error'], {
			cwd: this.tlsDir,
			label: `npm publish ${name}@${version} to the local registry`,
		});
		this.log(`registry: published ${name}@${version}`);
		return version;
	}

	/**
	 * The HTTPS proxy n8n's processes get: CONNECT registry.npmjs.org:443 is answered by a TLS server with this run's
	 * certificate, whose requests go on to Verdaccio; any other host is refused (403).
	 */
	async startStandIn() {
		const { key, cert } = makeCertificate(this.tlsDir);
		this.certFile = cert;
		this.front = https.createServer({ key: fs.readFileSync(key), cert: fs.readFileSync(cert) }, (req, res) => {
			const entry = { host: PUBLIC_REGISTRY_HOST, method: req.method, path: req.url, status: 0 };
			this.requests.push(entry);
			const headers = { ...req.headers, host: `127.0.0.1:${this.port}`, 'x-forwarded-proto': 'https' };
			const onward = http.request({ host: '127.0.0.1', port: this.port, method: req.method, path: req.url, headers }, (answer) => {
				entry.status = answer.statusCode;
				res.writeHead(answer.statusCode ?? 502, answer.headers);
				answer.pipe(res);
			});
			onward.on('error', () => res.destroy());
			req.pipe(onward);
		});
		this.proxy = http.createServer((req, res) => {
			this.requests.push({ host: req.headers.host ?? '', method: req.method, path: req.url, status: 403 });
			res.writeHead(403).end('only registry.npmjs.org is served here');
		});
		this.proxy.on('connect', (req, socket, head) => {
			const host = String(req.url).split(':')[0];
			socket.on('error', () => undefined);
			if (host !== PUBLIC_REGISTRY_HOST) {
				this.requests.push({ host, method: 'CONNECT', path: req.url, status: 403 });
				socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
				return;
			}
			socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
			if (head?.length) socket.unshift(head);
			this.front.emit('connection', socket);
		});
		this.proxyPort = await freePort();
		await new Promise((resolve) => this.proxy.listen(this.proxyPort, '127.0.0.1', resolve));
	}

	/**
	 * What an n8n process (and the npm it runs) needs to reach the registry through the stand-in: the proxy, the
	 * certificate, the default registry spelled out (npm's `outdated`, which n8n runs without --registry, would
	 * otherwise read the machine's npm configuration) and an npm cache of its own.
	 */
	get env() {
		return {
			HTTPS_PROXY: `http://127.0.0.1:${this.proxyPort}`,
			NO_PROXY: '127.0.0.1,localhost',
			NODE_EXTRA_CA_CERTS: this.certFile,
			npm_config_cafile: this.certFile,
			npm_config_registry: PUBLIC_REGISTRY,
			npm_config_cache: path.join(this.dir, 'npm-cache'),
			npm_config_update_notifier: 'false',
		};
	}

	/** The hosts the stand-in refused, with how often (n8n's banned-package check goes to api.n8n.io). */
	refusedHosts() {
		const counts = {};
		for (const r of this.requests) if (r.status === 403) counts[r.host] = (counts[r.host] ?? 0) + 1;
		return counts;
	}

	/** A request to Verdaccio itself: { status, json, text }; status 0 when it does not answer (yet). */
	async request(method, p, body) {
		try {
			return await httpRequest(method, `http://127.0.0.1:${this.port}${p}`, body);
		} catch {
			return { status: 0, json: undefined, text: '' };
		}
	}

	async stop() {
		await new Promise((resolve) => (this.proxy ? this.proxy.close(resolve) : resolve()));
		this.proxy?.closeAllConnections?.();
		this.front?.close();
		if (this.child) await this.procs.stop(this.child, 5_000);
		if (this.tlsDir) fs.rmSync(this.tlsDir, { recursive: true, force: true });
	}
}

module.exports = { LocalRegistry, ensureVerdaccio, nextPatchTarball, tarballManifest, PUBLIC_REGISTRY, VERDACCIO_VERSION };

if (require.main === module) {
	// `node scripts/registry.js --install`: Verdaccio into the cache folder (what the install tests use).
	if (process.argv.includes('--install')) process.stdout.write(`${ensureVerdaccio()}\n`);
	else process.stdout.write('usage: node scripts/registry.js --install\n');
}
