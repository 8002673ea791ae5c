import { AccountsModule } from '../../../libs/accounts/src/accounts.module';
import { StatusPagesModule } from '../../../libs/status-pages/src/status-pages.module';

/** Every bounded context; the API, the worker and the CLI load the same set so they share projections. */
export const CONTEXT_MODULES = [AccountsModule, StatusPagesModule];
