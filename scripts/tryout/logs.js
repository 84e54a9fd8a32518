/**
 * The try-out's output (scripts/start.js): its timed log lines, the last lines of a log file, and a child's
 * output appended to its log file (and to the terminal with --verbose).
 */
'use strict';

const fs = require('fs');
const { VERBOSE } = require('./config');

/** When the try-out started (the log lines and the banner count from here). */
const t0 = Date.now();

function log(msg) {
	process.stdout.write(`[start +${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}\n`);
}

function tail(file, n = 40) {
	try {
		return fs.readFileSync(file, 'utf8').split('\n').slice(-n).join('\n');
	} catch {
		return '';
	}
}

/** Append a child's output to a log file (and to the terminal with --verbose). */
function pipeToLog(child, file, prefix) {
	const out = fs.createWriteStream(file, { flags: 'a' });
	for (const s of [child.stdout, child.stderr]) {
		s.on('data', (d) => {
			out.write(d);
			if (VERBOSE) process.stdout.write(String(d).replace(/^(?=.)/gm, prefix));
		});
	}
	child.on('close', () => out.end());
}

module.exports = { t0, log, tail, pipeToLog };
