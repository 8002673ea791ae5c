import { isLinkPreviewBot } from './link-preview-bots';

describe('link preview bots', () => {
  it.each([
    'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
    'Twitterbot/1.0',
    'facebookexternalhit/1.1',
    'Facebot',
    'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
    'TelegramBot (like TwitterBot)',
    'WhatsApp/2.23.20.0',
    'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
    'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
  ])('recognises %s', (ua) => expect(isLinkPreviewBot(ua)).toBe(true));

  it.each(['curl/8.5.0', 'Wget/1.21', 'python-requests/2.31', 'Mozilla/5.0 (X11; Linux x86_64) Firefox/120.0'])('lets %s through', (ua) =>
    expect(isLinkPreviewBot(ua)).toBe(false),
  );

  it('lets a missing user agent through', () => expect(isLinkPreviewBot(null)).toBe(false));
});
