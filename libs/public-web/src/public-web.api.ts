// The face of the public-web context: other contexts and apps import only this file.
export { PublicWebModule } from './public-web.module';
export { PublicPagesQuery, PublicPagesQuestion, PublicPagesAnswers } from './read/public-pages.queries';
// Offered to other contexts: the public pages' look for pages served elsewhere (subscriber links).
export { PublicRenderer } from './render/public-renderer';
export { pageCsp } from './http/public-pages.controller';
