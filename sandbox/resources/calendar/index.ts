/** The Calendar V2 resource: a view of the task store's tasks and appointments with composite ids (`<n>-task`). */
import type { SandboxModule } from '../../core/module';
import { calendarRoutes } from './routes';
import { seedCalendar } from './seed';

export { CALENDAR_SEED } from './seed';
export { type CalendarEntry, type CalendarKind, SOURCE_TYPE, TASK_WAYS, calendarIdOf, calendarState, calendarView } from './entries';

/** Calendar V2 endpoints. */
export const calendarModule: SandboxModule = { name: 'calendar', routes: calendarRoutes, seed: seedCalendar };
