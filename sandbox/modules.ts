/** Endpoint groups beyond leads and system logs, each with its own routes, state and seed. */
import type { SandboxModule } from './module';
import { agentModule } from './routes/agent';
import { aiModule } from './routes/ai';
import { appointmentModule } from './routes/appointment';
import { calendarModule } from './routes/calendar';
import { callModule } from './routes/call';
import { communicationModule } from './routes/communication';
import { customFieldModule } from './routes/customField';
import { leadPipelineModule } from './routes/leadPipeline';
import { leadPondModule } from './routes/leadPond';
import { listingModule } from './routes/listing';
import { manualLogModule } from './routes/manualLog';
import { noteModule } from './routes/note';
import { notificationModule } from './routes/notification';
import { opportunityModule } from './routes/opportunity';
import { organizationModule } from './routes/organization';
import { routingModule } from './routes/routing';
import { salesAgentModule } from './routes/salesAgent';
import { tagModule } from './routes/tag';
import { taskModule } from './routes/task';
import { transactionModule } from './routes/transaction';
import { vendorModule } from './routes/vendor';
import { webhookModule } from './routes/webhook';

export const MODULES: SandboxModule[] = [agentModule, aiModule, appointmentModule, calendarModule, callModule, communicationModule, customFieldModule, leadPipelineModule, leadPondModule, listingModule, manualLogModule, noteModule, notificationModule, opportunityModule, organizationModule, routingModule, salesAgentModule, tagModule, taskModule, transactionModule, vendorModule, webhookModule];
