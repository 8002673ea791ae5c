import { Module } from '@nestjs/common';
import { StatusPageLinks } from './read/status-page-links';

/**
 * Holds the one StatusPageLinks registry. It depends on nothing, so the status-pages context can
 * import it to fill the registry while this context imports status-pages for its services.
 */
@Module({ providers: [StatusPageLinks], exports: [StatusPageLinks] })
export class StatusPageLinksModule {}
