/**
 * Postgres and Redis for n8n's queue mode, from Debian's packages (`apt-get install postgresql redis-server`),
 * each started on 127.0.0.1 on a free port with its own data folder, as children of a ProcessSet
 * (scripts/n8n-harness.js), so that stopping the set leaves nothing behind. Nothing system-wide is used or
 * changed: not the packages' own clusters or services, not /var/run/postgresql.
 *
 * Postgres refuses to run as root. Run as root (CI containers), initdb and postgres run as the `postgres` user
 * the Debian package creates (else `nobody`), with a data folder in the system's temp folder (a repository
 * under /root would not be reachable for that user); run as anyone else, they run as that user.
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const os = require('os');
const net = require('net');
const path = require('path');
const { spawnSync } = require('child_process');
const H = require('./n8n-harness');

const PG_DATABASE = 'n8n';
const PG_USER = 'n8n';
// Trust authentication on loopback only; n8n still sends this password.
const PG_PASSWORD = 'n8n-queue-local';

/** `name` on PATH, or null. */
function onPath(name) {
	for (const dir of (process.env.PATH || '').split(path.delimiter)) {
		const f = path.join(dir, name);
		if (dir && fs.existsSync(f)) return f;
	}
	return null;
}

/** The folder with initdb, postgres and pg_dump: $LOFTY_PG_BIN_DIR, Debian's newest /usr/lib/postgresql/<v>/bin, or PATH. */
function postgresBinDir() {
	if (process.env.LOFTY_PG_BIN_DIR) return process.env.LOFTY_PG_BIN_DIR;
	const base = '/usr/lib/postgresql';
	if (fs.existsSync(base)) {
		const versions = fs
			.readdirSync(base)
			.filter((v) => fs.existsSync(path.join(base, v, 'bin', 'initdb')))
			.sort((a, b) => Number(b) - Number(a));
		if (versions.length) return path.join(base, versions[0], 'bin');
	}
	const initdb = onPath('initdb');
	return initdb ? path.dirname(initdb) : null;
}

function redisServerBin() {
	return process.env.LOFTY_REDIS_SERVER || (fs.existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : onPath('redis-server'));
}

/** What is missing to run queue mode here (empty when nothing), with the command that installs it. */
function missingServices() {
	const missing = [];
	if (!postgresBinDir()) missing.push('postgresql');
	if (!redisServerBin()) missing.push('redis-server');
	return missing;
}

/** As root: the unprivileged account Postgres runs as ({ name, uid, gid }); otherwise null (run as this user). */
function postgresAccount() {
	if (typeof process.getuid !== 'function' || process.getuid() !== 0) return null;
	const passwd = fs.readFileSync('/etc/passwd', 'utf8').split('\n');
	for (const name of ['postgres', 'nobody']) {
		const line = passwd.find((l) => l.startsWith(`${name}:`));
		if (line) {
			const [, , uid, gid] = line.split(':');
			return { name, uid: Number(uid), gid: Number(gid) };
		}
	}
	H.fail('running as root, and neither a `postgres` nor a `nobody` account exists to run Postgres as');
}

function waitFor(check, what, { timeoutMs = 60_000, child, logFile } = {}) {
	const deadline = Date.now() + timeoutMs;
	return (async () => {
		for (;;) {
			if (child && (child.exitCode !== null || child.signalCode !== null))
				H.fail(`${what}: the process exited (code ${child.exitCode}, ${child.signalCode ?? 'no signal'}). ${logFile ? `Log tail:\n${tail(logFile)}` : ''}`);
			if (await check()) return;
			if (Date.now() > deadline) H.fail(`${what}: not within ${timeoutMs / 1000}s. ${logFile ? `Log tail:\n${tail(logFile)}` : ''}`);
			await H.sleep(150);
		}
	})();
}

function tail(file, n = 30) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
	} catch {
		return '';
	}
}

function logTo(child, file) {
	const out = fs.createWriteStream(file, { flags: 'a' });
	child.stdout.on('data', (d) => out.write(d));
	child.stderr.on('data', (d) => out.write(d));
	child.on('close', () => out.end());
}

/**
 * Postgres on 127.0.0.1:`port` with a fresh cluster and an empty database `n8n` owned by user `n8n`:
 * { child, port, env (n8n's DB_* variables), dataDir, dump(file), stop() }. Its log goes to `logFile`.
 */
async function startPostgres(procs, { port, logFile }) {
	const bin = postgresBinDir();
	if (!bin) H.fail('Postgres is not installed (apt-get install -y postgresql)');
	const account = postgresAccount();
	const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lofty-queue-pg-'));
	const ids = account ? { uid: account.uid, gid: account.gid } : {};
	if (account) fs.chownSync(dataDir, account.uid, account.gid);
	const env = { PATH: process.env.PATH, LANG: 'C', LC_ALL: 'C', HOME: dataDir, TZ: 'UTC' };
	const pgData = path.join(dataDir, 'data');
	fs.writeFileSync(logFile, '');

	const init = spawnSync(path.join(bin, 'initdb'), ['-D', pgData, '-U', PG_USER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync'], {
		cwd: dataDir,
		env,
		encoding: 'utf8',
		...ids,
	});
	fs.appendFileSync(logFile, `${init.stdout ?? ''}${init.stderr ?? ''}`);
	if (init.status !== 0) H.fail(`initdb failed (exit ${init.status}${account ? `, as ${account.name}` : ''}):\n${init.stderr || init.error?.message}`);

	// A throw-away cluster: no durability settings, no unix socket outside its own folder.
	const child = procs.start(
		path.join(bin, 'postgres'),
		[
			'-D', pgData,
			'-c', 'listen_addresses=127.0.0.1',
			'-c', `port=${port}`,
			'-c', `unix_socket_directories=${dataDir}`,
			'-c', 'fsync=off',
			'-c', 'synchronous_commit=off',
			'-c', 'full_page_writes=off',
			'-c', 'max_connections=200',
		],
		{ cwd: dataDir, env, ...ids },
	);
	logTo(child, logFile);
	const psqlArgs = ['-h', '127.0.0.1', '-p', String(port), '-U', PG_USER];
	await waitFor(() => spawnSync(path.join(bin, 'pg_isready'), [...psqlArgs, '-d', 'postgres', '-q']).status === 0, 'Postgres to accept connections', {
		child,
		logFile,
	});
	const created = spawnSync(path.join(bin, 'createdb'), [...psqlArgs, PG_DATABASE], { env, encoding: 'utf8' });
	if (created.status !== 0) H.fail(`createdb ${PG_DATABASE} failed: ${created.stderr}`);

	return {
		child,
		port,
		dataDir,
		account: account?.name ?? os.userInfo().username,
		env: {
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: '127.0.0.1',
			DB_POSTGRESDB_PORT: String(port),
			DB_POSTGRESDB_DATABASE: PG_DATABASE,
			DB_POSTGRESDB_USER: PG_USER,
			DB_POSTGRESDB_PASSWORD: PG_PASSWORD,
		},
		/** A plain-SQL dump of n8n's database (for the secret scan: values stored compressed in the cluster are plain here). */
		dump(file) {
			const r = spawnSync(path.join(bin, 'pg_dump'), [...psqlArgs, '--no-owner', '-f', file, PG_DATABASE], { env, encoding: 'utf8' });
			if (r.status !== 0) H.fail(`pg_dump failed: ${r.stderr}`);
		},
		/** SQL through psql: rows as arrays of strings. */
		query(sql) {
			const r = spawnSync(path.join(bin, 'psql'), [...psqlArgs, '-d', PG_DATABASE, '-At', '-F', '\t', '-c', sql], { env, encoding: 'utf8' });
			if (r.status !== 0) H.fail(`psql failed: ${r.stderr}`);
			return r.stdout.split('\n').filter(Boolean).map((l) => l.split('\t'));
		},
		/** Fast shutdown (SIGINT: ends sessions, no waiting for clients), then the data folder goes. */
		async stop() {
			H.killGroup(child.pid, 'SIGINT');
			await procs.stop(child, 15_000);
			fs.rmSync(dataDir, { recursive: true, force: true });
		},
	};
}

/** A Redis PING over TCP: whether it answered +PONG. */
function redisPing(port) {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		let text = '';
		const done = (ok) => {
			socket.destroy();
			resolve(ok);
		};
		socket.setTimeout(1000, () => done(false));
		socket.on('error', () => done(false));
		socket.on('connect', () => socket.write('PING\r\n'));
		socket.on('data', (d) => {
			text += d;
			if (text.includes('\r\n')) done(text.startsWith('+PONG'));
		});
	});
}

/** Redis on 127.0.0.1:`port`, nothing persisted, data folder `dir`: { child, port, env (n8n's QUEUE_BULL_REDIS_*), stop() }. */
async function startRedis(procs, { port, dir, logFile }) {
	const bin = redisServerBin();
	if (!bin) H.fail('Redis is not installed (apt-get install -y redis-server)');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(logFile, '');
	const args = ['--bind', '127.0.0.1', '--port', String(port), '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no', '--protected-mode', 'yes'];
	const child = procs.start(bin, args, { cwd: dir, env: { PATH: process.env.PATH } });
	logTo(child, logFile);
	await waitFor(() => redisPing(port), 'Redis to answer PING', { child, logFile });
	return {
		child,
		port,
		env: { QUEUE_BULL_REDIS_HOST: '127.0.0.1', QUEUE_BULL_REDIS_PORT: String(port) },
		async stop() {
			await procs.stop(child, 10_000);
		},
	};
}

module.exports = { postgresBinDir, redisServerBin, missingServices, postgresAccount, startPostgres, startRedis, redisPing, waitFor, tail, logTo };
