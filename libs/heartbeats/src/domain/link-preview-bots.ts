/** Link unfurlers fetch URLs pasted into chats; their visits are not heartbeats. */
const BOTS = /slackbot|twitterbot|facebookexternalhit|facebot|discordbot|telegrambot|whatsapp|linkedinbot|googlebot/i;

export function isLinkPreviewBot(userAgent: string | null | undefined): boolean {
  return typeof userAgent === 'string' && BOTS.test(userAgent);
}
