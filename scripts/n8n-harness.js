/**
 * Shared pieces for running this package inside a real n8n, used by scripts/smoke-n8n.js
 * (`npm run test:smoke`) and scripts/start.js (`npm start`, the try-out):
 *
 *   - build freshness (mtime of outputs against their sources) and `npm run build` / the sandbox's tsc build
 *   - `npm pack` and unpacking the tarball into <userFolder>/.n8n/nodes/node_modules/<package>, the way a
 *     community-node install leaves it, plus a probe that the node loads with n8n's own n8n-workflow
 *   - child processes in their own process groups (n8n starts a task runner), with a cleanup that leaves none
 *   - the sandbox (`node .build/sandbox/cli.js`) and its KEY=value lines
 *   - the quiet, offline n8n environment and `n8n execute --rawOutput` parsing
 *
 * Its parts, under scripts/harness/: core.js (root, StepError, free port, sleep), build.js (freshness and
 * builds), install.js (pack, install, probe), processes.js (ProcessSet), sandbox.js (the sandbox),
 * n8n.js (n8n's environment and execution results). This file is their one public face.
 *
 * Plain Node.js, no dependencies.
 */
'use strict';

const { ROOT, SANDBOX_CLI, StepError, fail, readPackageJson, freePort, sleep } = require('./harness/core');
const { newestMtime, isStale, runSync, runNpm, ensureBuild, ensureSandboxBuild } = require('./harness/build');
const { packPackage, installPackage, probeInstalledNode } = require('./harness/install');
const { ProcessSet, killGroup, killTree } = require('./harness/processes');
const { startSandbox, parseApiKey } = require('./harness/sandbox');
const { n8nEnv, parseRawOutput, itemsOf } = require('./harness/n8n');

module.exports = {
	ROOT,
	SANDBOX_CLI,
	StepError,
	fail,
	readPackageJson,
	freePort,
	newestMtime,
	isStale,
	runSync,
	runNpm,
	ensureBuild,
	ensureSandboxBuild,
	packPackage,
	installPackage,
	probeInstalledNode,
	ProcessSet,
	killGroup,
	killTree,
	sleep,
	startSandbox,
	parseApiKey,
	n8nEnv,
	parseRawOutput,
	itemsOf,
};
