/**
 * The try-out folder (scripts/start.js): its state file (what was installed and imported), the claim that
 * only one try-out runs in it, and the fingerprint of the build installed into it.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const H = require('../n8n-harness');
const { ROOT, DIR, STATE_FILE, PID_FILE, sha } = require('./config');

function readState() {
	try {
		return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
	} catch {
		return {};
	}
}

function writeState(state) {
	fs.writeFileSync(STATE_FILE, JSON.stringify(state, null, 2) + '\n');
}

/** Fingerprint of what `npm pack` would ship: every dist/ file (path, size, mtime) and package.json. */
function distFingerprint() {
	const parts = [fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')];
	const walk = (p) => {
		for (const e of fs.readdirSync(p, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
			const f = path.join(p, e.name);
			if (e.isDirectory()) walk(f);
			else {
				const st = fs.statSync(f);
				parts.push(`${path.relative(ROOT, f)}:${st.size}:${st.mtimeMs}`);
			}
		}
	};
	walk(path.join(ROOT, 'dist'));
	return sha(parts.join('\n'));
}

/** Only one try-out per folder: n8n's SQLite database is not shared. */
function claimFolder(dir = DIR, pidFile = PID_FILE) {
	fs.mkdirSync(dir, { recursive: true });
	try {
		const pid = Number(fs.readFileSync(pidFile, 'utf8'));
		if (pid && pid !== process.pid) {
			process.kill(pid, 0);
			H.fail(`another try-out (pid ${pid}) is running in ${dir}; stop it first (Ctrl-C in its terminal)`);
		}
	} catch (e) {
		if (e instanceof H.StepError) throw e;
	}
	fs.writeFileSync(pidFile, String(process.pid));
}

module.exports = { readState, writeState, distFingerprint, claimFolder };
