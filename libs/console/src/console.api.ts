/** The face of the console context: its module, and its HTML routes for the OpenAPI document. */
export { ConsoleModule } from './console.module';
export { consolePagesOpenApiPaths } from './http/console-pages.openapi';
