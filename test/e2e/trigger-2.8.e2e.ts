/** The Lofty Trigger through outages, restarts and kills in n8n 2.8.4 (it re-runs activation on every start). */
import { defineTriggerOutageSuite } from './triggerOutage';

defineTriggerOutageSuite({ version: '2.8.4', restartFault: 'timeout', skipWhenNotInstalled: true });
