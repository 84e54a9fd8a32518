/** The Lofty Trigger through outages, restarts and kills in n8n 1.123.81 (like 2.8, it re-runs activation on every start). */
import { defineTriggerOutageSuite } from './triggerOutage';

defineTriggerOutageSuite({ version: '1.123.81', restartFault: '500', skipWhenNotInstalled: !process.env.CI });
