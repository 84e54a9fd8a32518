/**
 * Finds sandbox secrets in text and files. Every secret the sandbox hands out has a recognisable shape
 * (sandbox/core/auth.ts; test/secrets/scan.test.ts keeps these shapes in step with it), so a scan needs no list of
 * values and also catches tokens issued during a run. Used by the jest reporter (test/secrets/reporter.js) over
 * everything the suites print, log and store, and by the real-n8n smoke run.
 *
 * A hit is reported masked (its first characters and length), never whole.
 * Plain Node.js, no dependencies.
 */
'use strict';

const fs = require('fs');
const path = require('path');

const SHAPES = [
	{ kind: 'API key', pattern: /lofty_sbx_[a-z_]+_[0-9a-f]{16}/g },
	{ kind: 'OAuth client secret', pattern: /sbx-[a-z]+-secret-[0-9a-f]{16}/g },
	{ kind: 'OAuth access token', pattern: /sbx_at_[A-Za-z0-9_-]{24}/g },
	{ kind: 'OAuth refresh token', pattern: /sbx_rt_[A-Za-z0-9_-]{24}/g },
	{ kind: 'OAuth authorization code', pattern: /sbx_code_[A-Za-z0-9_-]{24}/g },
	// The Lofty Trigger's webhook secret as its callback URL carries it (nodes/LoftyTrigger/subscriptionState.ts);
	// n8n keeps the bare secret in the workflow's static data, which is where it belongs.
	{ kind: 'webhook callback secret', pattern: /[?&]token=[0-9a-f]{64}/g },
];

/** The first characters and the length: enough to tell which secret it was, useless to anyone else. */
function mask(secret) {
	return `${secret.slice(0, 10)}…(${secret.length} chars)`;
}

function maskAll(text) {
	return SHAPES.reduce((t, { pattern }) => t.replace(pattern, mask), text);
}

/** Every secret-shaped string in `text`, with `where` and a masked excerpt around it. */
function findSecrets(text, where) {
	const hits = [];
	for (const { kind, pattern } of SHAPES) {
		for (const match of text.matchAll(pattern)) {
			const from = Math.max(0, match.index - 120);
			const excerpt = maskAll(text.slice(from, match.index + match[0].length + 40)).replace(/\s+/g, ' ');
			hits.push({ kind, secret: mask(match[0]), where, excerpt });
		}
	}
	return hits;
}

const SKIP_DIRS = new Set(['node_modules', '.cache', 'pack']);
const MAX_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Scans every file under `roots` (logs, n8n's database and event log, ...) byte for byte; folders named in
 * SKIP_DIRS hold installed code and n8n's static assets, not anything a run wrote.
 */
function scanFiles(roots) {
	const result = { files: 0, bytes: 0, hits: [], scanned: [] };
	const visit = (p) => {
		let stat;
		try {
			stat = fs.statSync(p);
		} catch {
			return; // removed while we looked
		}
		if (stat.isDirectory()) {
			if (SKIP_DIRS.has(path.basename(p))) return;
			for (const name of fs.readdirSync(p).sort()) visit(path.join(p, name));
			return;
		}
		if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return;
		// latin1 maps every byte to one character, so binary files (SQLite pages) are searched as they are stored.
		let text;
		try {
			text = fs.readFileSync(p, 'latin1');
		} catch {
			return; // removed between the look and the read (another run's folder being wiped)
		}
		result.files++;
		result.bytes += stat.size;
		result.scanned.push(p);
		result.hits.push(...findSecrets(text, p));
	};
	for (const root of roots) visit(root);
	return result;
}

function formatHits(hits, limit = 20) {
	const lines = hits.slice(0, limit).map((h) => `  ${h.kind} ${h.secret} in ${h.where}: …${h.excerpt}…`);
	if (hits.length > limit) lines.push(`  … and ${hits.length - limit} more`);
	return lines.join('\n');
}

module.exports = { SHAPES, findSecrets, scanFiles, formatHits, mask };
