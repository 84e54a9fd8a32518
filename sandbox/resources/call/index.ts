/** The call resource: dialer calls and their recording URLs (the data is seeded by the communication resource). */
import type { SandboxModule } from '../../core/module';
import { recordingRoutes } from './recording';
import { callRoutes } from './routes';

export * from './routes';
export { RECORDING_LINK_TTL_MS, recordingAudio } from './recording';

/** Call endpoints (their data is seeded by the Communication module). */
export const callModule: SandboxModule = { name: 'call', routes: [...callRoutes, ...recordingRoutes] };
