/**
 * Imported first (run.ts, n8nBulk.ts). Compiled test code (test/e2e/n8nServer.ts; test/secrets/observe.ts through the
 * harness) requires ../../scripts/* relative to itself, which from .build/bench/test/... is .build/bench/scripts:
 * link that to the real folder. Node resolves the link to its real path, so the scripts still find the repository
 * root from their own location.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const link = path.resolve(__dirname, '..', 'scripts');
if (!fs.existsSync(link)) {
	fs.rmSync(link, { force: true }); // a dangling link
	fs.symlinkSync(path.resolve(__dirname, '..', '..', '..', 'scripts'), link, 'dir');
}
