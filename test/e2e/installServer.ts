/**
 * An n8n that gets the package the way a user's does: from a registry, by n8n's own installer. Nothing is unpacked
 * into its user folder by hand; a local registry on loopback (scripts/registry.js: Verdaccio behind a stand-in for
 * registry.npmjs.org, n8n's default registry) serves the packed tarball, and n8n's processes reach it through the
 * stand-in's proxy.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

import { N8nServer, PACKAGE_NAME, type PackedPackage } from './n8nServer';

/* eslint-disable @typescript-eslint/no-require-imports */
const { LocalRegistry, nextPatchTarball } = require('../../scripts/registry');
const { ProcessSet } = require('../../scripts/n8n-harness');
/* eslint-enable @typescript-eslint/no-require-imports */

/** What n8n's nodes folder holds: the package folder's version, package.json's entry for it, and every file. */
export function installedInNodesDir(nodesDir: string): { folder?: string; listed?: string; entries: string[] } {
	const read = (file: string) => {
		try {
			return JSON.parse(fs.readFileSync(file, 'utf8'));
		} catch {
			return undefined;
		}
	};
	const folder = read(path.join(nodesDir, 'node_modules', PACKAGE_NAME, 'package.json'))?.version;
	const listed = read(path.join(nodesDir, 'package.json'))?.dependencies?.[PACKAGE_NAME];
	const entries = fs.existsSync(nodesDir) ? listTree(nodesDir) : [];
	return { folder, listed, entries };
}

/** Every file under `dir`, relative (an emptied node_modules folder that n8n leaves holds none). */
function listTree(dir: string, at = ''): string[] {
	return fs.readdirSync(path.join(dir, at), { withFileTypes: true }).flatMap((e) => {
		const rel = path.join(at, e.name);
		return e.isDirectory() ? listTree(dir, rel) : [rel];
	});
}

export class RegistryN8nServer extends N8nServer {
	// eslint-disable-next-line @typescript-eslint/no-explicit-any
	registry: any;
	pack: PackedPackage | undefined;

	/** n8n's folder of community packages (<user folder>/.n8n/nodes). */
	get nodesDir(): string {
		return path.join(this.dir, 'user', '.n8n', 'nodes');
	}

	/** Nothing by hand: n8n installs the package itself. */
	protected installPackage(_rt: unknown, _pack: PackedPackage, userFolder: string): void {
		fs.mkdirSync(userFolder, { recursive: true });
		this.log('nothing unpacked into the user folder: n8n installs the package from the registry');
	}

	protected async startN8n(rt: { nodeBin: string; n8nBin: string }, pack: PackedPackage, extra: Record<string, string>): Promise<void> {
		this.pack = pack;
		this.registry = new LocalRegistry({ dir: path.join(this.dir, 'registry'), procs: this.procs, log: (m: string) => this.log(m) });
		await this.registry.start();
		await this.registry.publish(pack.tarball);
		await super.startN8n(rt, pack, { ...extra, ...this.registry.env });
	}

	/** Publishes the packed package again as the next patch version; resolves that version. */
	async publishNextVersion(): Promise<string> {
		const next = nextPatchTarball(this.pack!.tarball, path.join(this.dir, 'next'));
		return await this.registry.publish(next.tarball);
	}

	async stop(): Promise<void> {
		await super.stop();
		await this.registry?.stop();
		if (this.registry) this.log(`registry: hosts refused by the stand-in: ${JSON.stringify(this.registry.refusedHosts())}`);
	}
}

/**
 * n8n 3.0's way for queue mode, in n8n 2.41.1: a local registry serving the packed package, and the variables every
 * process gets: N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV and N8N_COMMUNITY_PACKAGES (main installs the list at its
 * start), N8N_REINSTALL_MISSING_PACKAGES (a worker or webhook process installs, at its start, what main recorded and
 * it lacks), and the registry's proxy settings. The registry runs until its stop().
 */
export async function envManagedInstall(dir: string, pack: PackedPackage, log: (m: string) => void): Promise<{ registry: any; env: Record<string, string> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
	const registry = new LocalRegistry({ dir, procs: new ProcessSet(), log });
	await registry.start();
	await registry.publish(pack.tarball);
	const env = {
		...registry.env,
		N8N_COMMUNITY_PACKAGES_MANAGED_BY_ENV: 'true',
		N8N_COMMUNITY_PACKAGES: JSON.stringify([{ name: PACKAGE_NAME, version: pack.version }]),
		N8N_REINSTALL_MISSING_PACKAGES: 'true',
	};
	return { registry, env };
}
