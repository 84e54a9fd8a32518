/**
 * The Lofty Trigger through outages, restarts and kills in n8n 2.41.1, with activation re-run on every start
 * (N8N_USE_WORKFLOW_PUBLICATION_SERVICE=false; by default 2.41 calls nothing of a webhook trigger on start).
 */
import { defineTriggerOutageSuite } from './triggerOutage';

defineTriggerOutageSuite({ version: process.env.LOFTY_E2E_N8N_VERSION || '2.41.1', env: { N8N_USE_WORKFLOW_PUBLICATION_SERVICE: 'false' }, restartFault: '500' });
