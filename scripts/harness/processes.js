/**
 * Child processes for the n8n harness (scripts/n8n-harness.js): each in its own process group (n8n starts a
 * task runner), with a cleanup that leaves none.
 */
'use strict';

const { spawn } = require('child_process');
const { ROOT, StepError, sleep } = require('./core');

/**
 * Child processes, each detached into its own process group so that a signal reaches its whole tree
 * (n8n starts a task runner) and a terminal's Ctrl-C reaches only the parent, which then stops them in order.
 */
class ProcessSet {
	constructor({ verbose = false } = {}) {
		this.verbose = verbose;
		this.children = new Set();
		this.groups = new Set();
	}

	start(cmd, args, opts) {
		const child = spawn(cmd, args, { ...opts, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
		this.children.add(child);
		if (child.pid) this.groups.add(child.pid);
		child.on('exit', () => this.children.delete(child));
		return child;
	}

	/** Run a command to completion (with a timeout) and collect its output: { code, signal, stdout, stderr, secs }. */
	run(cmd, args, { label, env, cwd = ROOT, timeoutMs = 300_000 }) {
		return new Promise((resolve, reject) => {
			const started = Date.now();
			const child = this.start(cmd, args, { cwd, env });
			let stdout = '';
			let stderr = '';
			child.stdout.on('data', (d) => {
				stdout += d;
				if (this.verbose) process.stdout.write(d);
			});
			child.stderr.on('data', (d) => {
				stderr += d;
				if (this.verbose) process.stderr.write(d);
			});
			const timer = setTimeout(() => {
				killTree(child, 'SIGKILL');
				reject(new StepError(`${label} timed out after ${timeoutMs / 1000}s\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`));
			}, timeoutMs);
			child.on('error', (e) => {
				clearTimeout(timer);
				reject(new StepError(`${label} could not start: ${e.message}`));
			});
			child.on('close', (code, signal) => {
				clearTimeout(timer);
				killGroup(child.pid, 'SIGTERM'); // leftovers of a finished command
				this.groups.delete(child.pid);
				const secs = ((Date.now() - started) / 1000).toFixed(1);
				resolve({ code, signal, stdout, stderr, secs });
			});
		});
	}

	/** Stop one child's process group: SIGTERM, then SIGKILL after `graceMs`. Whether it was still there for the SIGKILL. */
	async stop(child, graceMs = 10_000) {
		if (!child?.pid) return false;
		killGroup(child.pid, 'SIGTERM');
		for (let waited = 0; waited < graceMs && killGroup(child.pid, 0); waited += 100) await sleep(100);
		const killed = killGroup(child.pid, 'SIGKILL');
		this.groups.delete(child.pid);
		return killed;
	}

	/** Stop everything started (SIGTERM, then SIGKILL after `graceMs`); resolves when no group is left. */
	async stopAll(graceMs = 10_000) {
		for (const c of this.children) killTree(c, 'SIGTERM');
		let alive = [...this.groups].filter((g) => killGroup(g, 'SIGTERM'));
		// Poll asynchronously so the event loop reaps exited children (a zombie still counts as alive).
		for (let waited = 0; waited < graceMs && alive.length; waited += 100) {
			await sleep(100);
			alive = alive.filter((g) => killGroup(g, 0));
		}
		for (const g of alive) killGroup(g, 'SIGKILL');
		for (let i = 0; i < 20 && alive.some((g) => killGroup(g, 0)); i++) await sleep(100);
		this.groups.clear();
		return alive.length; // groups that needed SIGKILL
	}
}

/** Kill a detached child and its whole process group. */
function killTree(child, signal = 'SIGTERM') {
	if (!child || child.exitCode !== null || child.signalCode !== null) return;
	try {
		process.kill(-child.pid, signal);
	} catch {
		try {
			child.kill(signal);
		} catch {
			/* gone */
		}
	}
}

/** Signal a whole process group (a leader that exited may leave e.g. n8n's task runner behind). */
function killGroup(pgid, signal) {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false; // no process left in the group
	}
}

module.exports = { ProcessSet, killTree, killGroup };
